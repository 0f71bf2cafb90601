import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { MAX_FINDINGS } from '../replay/result.js';
import { moreFindingsText } from '../report/format.js';
import { tempDir } from '../test-support/temp-dir.js';
import { replayWeight, WORKER_PAYS_FROM } from './auto-jobs.js';
import { RESULT_BUDGET, runBatch, type BatchTask } from './batch.js';

/**
 * The bounds the code promises, asserted by counting (not by a worker's heap limit,
 * which depends on the machine's load): a game keeps at most MAX_FINDINGS findings and
 * counts the rest, and a batch's results are handed back in parts of about
 * RESULT_BUDGET bytes. Together they bound what a worker holds, whatever the game.
 */
const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
/**
 * Six copies of one long game of the chess sample (a 90 kB record): under every dialect
 * but chess, with --continue-after-divergence, each diverges 1,331 times (1,330 under
 * wikipedia-two-dice), past the cap.
 */
const fixture = join(root, 'src/run/test-support/fixtures/long-divergent-games.ndjson.gz');
const UNCAPPED: Record<string, number> = { chess: 0, 'wikipedia-two-dice': 1330, beturanga: 1331, 'brainking-one-die': 1331, 'dicechess-com': 1331, reference: 1331 };

const cli = (args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

interface Line {
  index: number;
  dialect: string;
  status: string;
  findings: unknown[];
  moreFindings?: number;
}

describe('findings per game are capped and counted beyond the cap (22.8, 22.14)', () => {
  it('the real CLI judges every record of the long-game fixture: exit 0, 6 records × 6 dialects, at most MAX_FINDINGS findings a line, the rest counted', async () => {
    const out = join(tempDir('worker-limits-'), 'run');
    // The six dialects whose uncapped counts are known.
    const dialects = Object.keys(UNCAPPED).flatMap((d) => ['--dialect', d]);
    const r = await cli(['replay', fixture, ...dialects, '--continue-after-divergence', '--jobs', '2', '--force-jobs', '--out', out, '--quiet']);
    expect(r.stderr).not.toMatch(/dice-dialects:|Error/);
    expect(r.status).toBe(0);
    const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
    expect(lines.length).toBe(36);
    expect(new Set(lines.map((l) => l.index))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    for (const l of lines) {
      expect(l.findings.length).toBe(Math.min(MAX_FINDINGS, UNCAPPED[l.dialect]));
      expect(l.findings.length + (l.moreFindings ?? 0)).toBe(UNCAPPED[l.dialect]);
    }
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { totals: { lines: number; conforming: number; diverging: number; unreadable: number; findings: number } };
    expect(summary.totals.lines).toBe(36);
    expect(summary.totals.conforming + summary.totals.diverging + summary.totals.unreadable).toBe(36);
    // Every finding is counted in the totals, kept or not.
    expect(summary.totals.findings).toBe(6 * Object.values(UNCAPPED).reduce((a, b) => a + b, 0));
  }, 300_000);

  it('junit per game says how many findings were not kept', async () => {
    const out = join(tempDir('worker-limits-'), 'run');
    const r = await cli(['replay', fixture, '--dialect', 'reference', '--continue-after-divergence', '--junit-per-game', '--limit', '1', '--jobs', '1', '--out', out, '--quiet']);
    expect(r.status).toBe(0);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('… and 331 more findings (at most 1,000 are kept a game; the rest are counted)');
  }, 300_000);

  it('the closing line, report.md and report.html (of a run and of a merge of its shards) say how many findings were not kept, in junit\'s words', async () => {
    const more = moreFindingsText(2 * (UNCAPPED.reference - MAX_FINDINGS));
    expect(more).toBe('… and 662 more findings (at most 1,000 are kept a game; the rest are counted)');
    const dir = tempDir('worker-limits-');
    const args = [fixture, '--dialect', 'reference', '--dialect', 'chess', '--continue-after-divergence', '--limit', '2', '--jobs', '1'];
    const r = await cli(['replay', ...args, '--out', join(dir, 'run')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`^replayed 2 records under 2 dialects in [\\d.]+ s: 2 conforming, 2 diverging, 0 unreadable, a record once under each dialect; 2,000 findings ${more.replace(/[()]/g, '\\$&')}\n$`));
    const md = readFileSync(join(dir, 'run', 'report.md'), 'utf8');
    expect(md).toContain(`\n\n${more}\n`);
    expect(readFileSync(join(dir, 'run', 'report.html'), 'utf8')).toContain(`<p class="more-findings">${more}</p>`);
    for (const k of [1, 2]) expect((await cli(['replay', ...args, '--shard', `${k}/2`, '--out', join(dir, `shard-${k}`), '--quiet'])).status).toBe(0);
    const merged = await cli(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '--out', join(dir, 'merged')]);
    expect(merged.status).toBe(0);
    expect(merged.stderr).toBe(`merged 2 shards: 2 records, 2 conforming, 2 diverging, 0 unreadable, a record once under each dialect; 2,000 findings ${more}\n`);
    const beforeRunInfo = (text: string): string => text.slice(0, text.indexOf('\n## Run info\n'));
    expect(beforeRunInfo(readFileSync(join(dir, 'merged', 'report.md'), 'utf8'))).toBe(beforeRunInfo(md));
    // A run whose games all stay under the cap says nothing of it.
    const short = await cli(['replay', fixture, '--dialect', 'reference', '--limit', '1', '--jobs', '1', '--out', join(dir, 'short')]);
    expect(short.stderr).not.toContain('more finding');
    expect(readFileSync(join(dir, 'short', 'report.md'), 'utf8')).not.toContain('more finding');
  }, 300_000);

  it('worker threads (batches judged in parts) give the same results as jobs 1 under --continue-after-divergence', async () => {
    const outs: string[] = [];
    for (const jobs of [1, 2]) {
      const out = join(tempDir('worker-limits-'), 'run');
      const r = await cli(['replay', join(root, 'corpora/samples/chess/games.ndjson.gz'), '--dialect', 'chess', '--dialect', 'reference', '--continue-after-divergence', '--limit', '40', '--jobs', String(jobs), '--force-jobs', '--out', out, '--quiet']);
      expect(r.status).toBe(0);
      outs.push(readFileSync(join(out, 'results.ndjson'), 'utf8'));
    }
    expect(outs[0]).toBe(outs[1]);
  }, 300_000);
});

describe('runBatch hands results back in parts under the byte budget, and resumes where it stopped', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ kind: 'unreadable' as const, index: i, source: 's', location: null, id: null, code: 'x', message: 'm'.repeat(100 + ((i * 37) % 500)) }));
  const task: BatchTask = { items, corpora: items.map(() => 's'), columns: ['d'], judge: { module: '', params: null, key: '' } };
  const judge = (item: (typeof items)[number], emit: (l: never) => void) => emit({ id: null, dialect: 'd', status: 'unreadable', findings: [], index: item.index, source: null, turns: 0, message: item.message } as never);

  it('each part holds at most the budget plus one record\'s lines, and the parts concatenate to the whole', () => {
    const whole = runBatch(task, judge as never);
    expect(whole.rest).toBeNull();
    const longest = Math.max(...whole.text.split('\n').map((l) => l.length + 1));
    for (const budget of [1, 700, 2000]) {
      let text = '';
      let parts = 0;
      let part: BatchTask = { ...task, budget };
      for (;;) {
        const r = runBatch(part, judge as never);
        parts++;
        expect(r.text.length).toBeLessThan(budget + longest);
        text += r.text;
        if (!r.rest) break;
        part = { ...part, items: part.items.slice(r.rest.item), corpora: part.corpora.slice(r.rest.item), skip: r.rest.skip };
      }
      expect(text).toBe(whole.text);
      expect(parts).toBeGreaterThanOrEqual(Math.floor(whole.text.length / (budget + longest)));
    }
    expect(RESULT_BUDGET).toBeGreaterThan(MAX_FINDINGS);
  });
});

describe('a worker that dies', () => {
  it('is one line naming the batch, exit 2, and no run folder or temporary left', async () => {
    const dir = tempDir('worker-limits-');
    const out = join(dir, 'run');
    // 4 MB cannot even load the judge: the worker dies whatever the load.
    const r = await cli(['replay', fixture, '--all-dialects', '--continue-after-divergence', '--jobs', '2', '--force-jobs', '--out', out, '--quiet'], { DICE_DIALECTS_WORKER_HEAP_MB: '4' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^dice-dialects: a worker thread failed judging records \d+–\d+ of .*long-divergent-games\.ndjson\.gz: .*memory.*$/m);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  }, 300_000);

  it('shows when workers start for an input of unknown size (a URL): none for a small one, even with --jobs 2; once the input read pays for one; at once when forced', async () => {
    // A worker with a 4 MB heap dies as it warms up: the run fails (exit 2) exactly when a worker started.
    const sample = gunzipSync(readFileSync(join(root, 'corpora/samples/reference/games.ingest-wire.ndjson.gz')));
    // 6 MB of lines that are no records (each one unreadable, cheap to judge): under every dialect, each replayed whole
    // (--continue-after-divergence), past a worker's worth of ingest-wire text (45 MB a dialect).
    const junk = Buffer.from(`{"junk":"${'x'.repeat(60_000)}"}\n`.repeat(100));
    expect(junk.length * replayWeight(10, true)).toBeGreaterThan(WORKER_PAYS_FROM['ingest-wire']);
    expect(sample.length * replayWeight(10, false)).toBeLessThan(WORKER_PAYS_FROM['ingest-wire']);
    const bodies: Record<string, Buffer> = { '/small.ndjson': sample, '/large.ndjson': junk };
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(bodies[req.url ?? '']);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = (path: string): string => `http://127.0.0.1:${(server.address() as { port: number }).port}${path}`;
    const dir = tempDir('worker-limits-');
    const replay = (path: string, name: string, extra: string[]) =>
      cli(['replay', url(path), '--all-dialects', '--format', 'ingest-wire', '--out', join(dir, name), '--quiet', ...extra], { DICE_DIALECTS_WORKER_HEAP_MB: '4' });
    try {
      const one = await replay('/small.ndjson', 'one', ['--jobs', '1']);
      const small = await replay('/small.ndjson', 'small', ['--jobs', '2']);
      expect([one.status, small.status], small.stderr).toEqual([0, 0]);
      expect(readFileSync(join(dir, 'small', 'results.ndjson'), 'utf8')).toBe(readFileSync(join(dir, 'one', 'results.ndjson'), 'utf8'));
      const large = await replay('/large.ndjson', 'large', ['--jobs', '2', '--continue-after-divergence']);
      expect(large.status, large.stderr).toBe(2);
      expect(large.stderr).toMatch(/a worker thread failed judging records \d+–\d+ of .*large\.ndjson: .*memory/);
      const forced = await replay('/small.ndjson', 'forced', ['--jobs', '2', '--force-jobs']);
      expect(forced.status, forced.stderr).toBe(2);
    } finally {
      server.close();
    }
  }, 300_000);
});
