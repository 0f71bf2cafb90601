import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';
import { chooseJobs, jobsNote, WORKER_PAYS_FROM } from './auto-jobs.js';

const samples = join(packageRoot(), 'corpora/samples');
const cores = availableParallelism();

describe('the default jobs: one thread for an input too small to pay for a worker', () => {
  it('a small file: one thread by default, and a note says why; asked-for jobs are kept, with a note', async () => {
    const dir = tempDir('auto-jobs-');
    const file = join(dir, 'one.ndjson');
    writeFileSync(file, `${'x'.repeat(1000)}\n`);
    const auto = await chooseJobs({ sources: [file], format: 'ndjson' });
    expect(auto).toEqual({ jobs: 1, asked: undefined, work: 1001 / WORKER_PAYS_FROM.ndjson, bytes: 1001 });
    expect(jobsNote(auto)).toMatch(/^1 thread: the input \(1 kB of text\) is 0 % of what pays for a worker thread's start-up/);
    const asked = await chooseJobs({ jobs: 2, sources: [file], format: 'ndjson' });
    expect(asked.jobs).toBe(2);
    expect(jobsNote(asked)).toMatch(/^--jobs 2 as asked, though the input/);
    expect(jobsNote(await chooseJobs({ jobs: 1, sources: [file] }))).toBeNull();
  });

  it('the samples under every dialect are worth the cores; a URL or stdin, of unknown size, too', async () => {
    const all = await chooseJobs({ sources: [samples], weight: 10 });
    if (cores > 1) expect(all.jobs).toBe(cores);
    expect(all.work).toBeGreaterThan(1);
    expect(jobsNote(all)).toBeNull();
    for (const source of ['http://127.0.0.1:9/games.ndjson', '-']) expect(await chooseJobs({ sources: [source] })).toMatchObject({ jobs: cores, work: null });
  });

  it("a gzip file counts its text, in the format its first bytes say (the state maps' threshold for state maps)", async () => {
    const maps = join(samples, 'dicechess-com/games.state-maps.ndjson.gz');
    const sized = await chooseJobs({ sources: [maps], weight: 1 });
    expect(sized.bytes).toBeGreaterThan(338_996 * 2);
    expect(sized.work).toBeCloseTo(sized.bytes! / WORKER_PAYS_FROM['dicechess-com'], 6);
  });
});
