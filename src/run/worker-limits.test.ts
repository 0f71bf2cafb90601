import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';
import { RESULT_BUDGET, runBatch, type BatchTask } from './batch.js';

const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
/**
 * Six copies of one long game of the chess sample (a 90 kB record): under every dialect with
 * --continue-after-divergence each gives about 2 MB of findings, so one input-sized batch
 * gave about 10 MB of result text. With a 32 MB worker heap that ran the worker out of memory
 * (ERR_WORKER_OUT_OF_MEMORY, a stack trace, exit 2) before results were judged in parts.
 */
const fixture = join(root, 'src/run/test-support/fixtures/long-divergent-games.ndjson.gz');
const cli = (args: string[], heapMb: number) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, DICE_DIALECTS_WORKER_HEAP_MB: String(heapMb) } });

describe('a batch whose results explode stays within a small worker heap', () => {
  it('the real CLI judges every record of the long-game fixture with 32 MB workers: exit 0, 6 records × 6 dialects', () => {
    const out = join(tempDir('worker-limits-'), 'run');
    const r = cli(['replay', fixture, '--all-dialects', '--continue-after-divergence', '--jobs', '2', '--out', out, '--quiet'], 32);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { index: number; status: string });
    expect(lines.length).toBe(36);
    expect(new Set(lines.map((l) => l.index))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    const totals = (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { totals: { lines: number; conforming: number; diverging: number; unreadable: number } }).totals;
    expect(totals.lines).toBe(36);
    expect(totals.conforming + totals.diverging + totals.unreadable).toBe(36);
  });

  it('worker threads (batches judged in parts) give the same results as jobs 1 under --continue-after-divergence', () => {
    const outs = [1, 2].map((jobs) => {
      const out = join(tempDir('worker-limits-'), 'run');
      const r = cli(['replay', join(root, 'corpora/samples/chess/games.ndjson.gz'), '--dialect', 'chess', '--dialect', 'reference', '--continue-after-divergence', '--limit', '40', '--jobs', String(jobs), '--out', out, '--quiet'], 96);
      expect(r.status).toBe(0);
      return readFileSync(join(out, 'results.ndjson'), 'utf8');
    });
    expect(outs[0]).toBe(outs[1]);
  });
});

describe('runBatch stops at the result budget and resumes where it stopped', () => {
  it('the parts concatenate to the whole', () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ kind: 'unreadable' as const, index: i, source: 's', location: null, id: null, code: 'x', message: 'm'.repeat(100) }));
    const task: BatchTask = { items, corpora: items.map(() => 's'), columns: ['d'], judge: { module: '', params: null, key: '' } };
    const judge = (item: (typeof items)[number], emit: (l: never) => void) => emit({ id: null, dialect: 'd', status: 'unreadable', findings: [], index: item.index, source: null, turns: 0, message: item.message } as never);
    const whole = runBatch(task, judge as never);
    expect(whole.rest).toBeNull();
    let text = '';
    let part: BatchTask = { ...task, budget: 1 };
    for (let n = 0; n < 10; n++) {
      const r = runBatch(part, judge as never);
      text += r.text;
      if (!r.rest) break;
      part = { ...part, items: part.items.slice(r.rest.item), corpora: part.corpora.slice(r.rest.item), skip: r.rest.skip };
    }
    expect(text).toBe(whole.text);
    expect(RESULT_BUDGET).toBeGreaterThan(0);
  });
});

describe('a worker that dies', () => {
  it('is one line naming the batch, exit 2, and no run folder or temporary left', () => {
    const dir = tempDir('worker-limits-');
    const out = join(dir, 'run');
    const r = cli(['replay', fixture, '--all-dialects', '--continue-after-divergence', '--jobs', '2', '--out', out, '--quiet'], 4);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^dice-dialects: a worker thread failed judging records \d+–\d+ of .*long-divergent-games\.ndjson\.gz: .*memory.*\n$/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
