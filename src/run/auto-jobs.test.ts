import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';
import { chooseJobs, jobsNote, replayWeight, WORKER_PAYS_FROM } from './auto-jobs.js';
import { BATCH_BYTES } from './batch-size.js';

const samples = join(packageRoot(), 'corpora/samples');
const cores = availableParallelism();

describe('the jobs: one thread for an input too small to pay for a worker, by default or asked', () => {
  it('a small file: one thread by default and when more are asked for, each with a note saying why; --force-jobs starts them', async () => {
    const dir = tempDir('auto-jobs-');
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, `${'x'.repeat(1000)}\n`);
    const auto = await chooseJobs({ sources: [file], format: 'ndjson' });
    expect(auto).toEqual({ jobs: 1, threads: 1, asked: undefined, forced: false, work: 1001 / WORKER_PAYS_FROM.ndjson, bytes: 1001 });
    expect(jobsNote(auto)).toBe('1 thread: the input (1 kB of text) is one batch, which one thread judges whole');
    const asked = await chooseJobs({ jobs: 2, sources: [file], format: 'ndjson' });
    expect(asked).toMatchObject({ jobs: 1, threads: 1, asked: 2 });
    expect(jobsNote(asked)).toBe('--jobs 2: 1 thread, since the input (1 kB of text) is one batch, which one thread judges whole');
    const forced = await chooseJobs({ jobs: 2, force: true, sources: [file], format: 'ndjson' });
    expect(forced).toMatchObject({ jobs: 2, threads: 1, forced: true });
    expect(jobsNote(forced)).toBe('--jobs 2 --force-jobs: the input (1 kB of text) is one batch, which one thread judges whole: no worker thread starts');
    expect(jobsNote(await chooseJobs({ jobs: 1, sources: [file] }))).toBeNull();
  });

  it('an input of more than one batch but below a worker\'s worth: one thread unless forced; a history list (size unknown) counts as large', async () => {
    const dir = tempDir('auto-jobs-batch-');
    const two = join(dir, 'two.ndjson');
    writeFileSync(two, `${'x'.repeat(BATCH_BYTES)}\n`);
    const asked = await chooseJobs({ jobs: 3, sources: [two], format: 'ndjson' });
    expect(asked).toMatchObject({ jobs: 1, threads: 1, asked: 3, forced: false });
    expect(jobsNote(asked)).toMatch(/^--jobs 3: 1 thread, since the input \(\d+ kB of text\) is \d+ % of what pays for a worker thread's start-up \(--force-jobs to start the workers anyway\)$/);
    const forced = await chooseJobs({ jobs: 3, force: true, sources: [two], format: 'ndjson' });
    expect(forced).toMatchObject({ jobs: 3, threads: 3, forced: true });
    expect(jobsNote(forced)).toBeNull();
    expect(await chooseJobs({ jobs: 3, sources: [], historyList: join(dir, 'list.txt') })).toMatchObject({ jobs: 3, threads: 3, work: null });
  });

  it('the samples under every dialect are worth the cores; a URL or stdin, of unknown size, too', async () => {
    const all = await chooseJobs({ sources: [samples], weight: 10, load: 0 });
    if (cores > 1) expect(all.jobs).toBe(cores);
    expect(all.work).toBeGreaterThan(1);
    expect(jobsNote(all)).toBeNull();
    for (const source of ['http://127.0.0.1:9/games.ndjson', '-']) expect(await chooseJobs({ sources: [source], load: 0 })).toMatchObject({ jobs: cores, work: null });
  });

  it.skipIf(cores < 2)('by default, no more threads than the load average leaves cores idle for (this one besides), in no note; asked-for jobs as asked for an input that pays for them', async () => {
    const busy = await chooseJobs({ sources: [samples], weight: 10, load: cores + 0.5 });
    expect(busy).toMatchObject({ jobs: 1, threads: 1 });
    expect(busy.work).toBeGreaterThan(1);
    expect(jobsNote(busy)).toBeNull();
    // One core busy elsewhere: the others run this thread and its workers.
    expect((await chooseJobs({ sources: [samples], weight: 10, load: 1 })).jobs).toBe(cores);
    expect((await chooseJobs({ sources: [samples], weight: 10, load: cores - 1.5 })).jobs).toBe(Math.min(cores, 2));
    const asked = await chooseJobs({ jobs: 2, sources: [samples], weight: 10, load: cores + 0.5 });
    expect(asked).toMatchObject({ jobs: 2, threads: 2 });
    expect(jobsNote(asked)).toBeNull();
  });

  it('a replay weighs a further dialect a twentieth of a pass (its games mostly diverge early), each a whole pass with --continue-after-divergence', () => {
    expect([replayWeight(1, false), replayWeight(10, false), replayWeight(10, true), replayWeight(0, true)]).toEqual([1, 1.45, 10, 1]);
  });

  it("a gzip file counts its text, in the format its first bytes say (the state maps' threshold for state maps)", async () => {
    const maps = join(samples, 'dicechess-com/games.state-maps.ndjson.gz');
    const sized = await chooseJobs({ sources: [maps], weight: 1 });
    expect(sized.bytes).toBeGreaterThan(338_996 * 2);
    expect(sized.work).toBeCloseTo(sized.bytes! / WORKER_PAYS_FROM['dicechess-com'], 6);
  });
});

describe('the command line says what it chose', () => {
  it('a one-game replay: one thread by default and when two are asked for, each with its note; --force-jobs keeps the two asked for; the same results', () => {
    const dir = tempDir('auto-jobs-cli-');
    const game = join(dir, 'one.ndjson');
    writeFileSync(game, `${gunzipSync(readFileSync(join(samples, 'reference/games.ndjson.gz'))).toString('utf8').split('\n')[0]}\n`);
    const run = (extra: string[], out: string) =>
      spawnSync(process.execPath, [join(packageRoot(), 'bin/dice-dialects.js'), 'replay', game, '--dialect', 'reference', '--out', join(dir, out), ...extra], { encoding: 'utf8' });
    const auto = run([], 'auto');
    expect(auto.stderr).toMatch(/^dice-dialects: note: 1 thread: the input \(\d+ kB of text\) is one batch, which one thread judges whole\nreplayed 1 record/);
    const two = run(['--jobs', '2'], 'two');
    expect(two.stderr).toMatch(/^dice-dialects: note: --jobs 2: 1 thread, since the input \(\d+ kB of text\) is one batch/);
    const jobsOf = (out: string) => (JSON.parse(readFileSync(join(dir, out, 'summary.json'), 'utf8')) as { run_info: { options: { jobs: number } } }).run_info.options.jobs;
    const forced = run(['--jobs', '2', '--force-jobs'], 'forced');
    expect(forced.stderr).toMatch(/^dice-dialects: note: --jobs 2 --force-jobs: the input \(\d+ kB of text\) is one batch, which one thread judges whole: no worker thread starts\n/);
    expect([jobsOf('auto'), jobsOf('two'), jobsOf('forced')]).toEqual([1, 1, 2]);
    for (const out of ['two', 'forced']) expect(readFileSync(join(dir, out, 'results.ndjson'), 'utf8')).toBe(readFileSync(join(dir, 'auto', 'results.ndjson'), 'utf8'));
    expect(run(['--force-jobs'], 'alone').stderr).toMatch(/--force-jobs starts the threads --jobs N asks for: give --jobs N too/);
    expect(run(['--jobs', '2', '--quiet'], 'quiet').stderr).toBe('');
  }, 120_000);
});
