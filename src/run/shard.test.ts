import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { Summary } from '../report/summary-schema.js';
import { ShardManifest } from './manifest.js';
import { writeMixedCorpus } from './test-support/mixed-corpus.js';

const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
const DIALECTS = ['--dialect', 'reference', '--dialect', 'dicechess-com'];
let dir: string;
let sources: string[];

/** One CLI process, as a pod would run it. */
const cli = (args: string[]): Promise<{ status: number | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn('node', [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stderr }));
  });

/** The files `merge` must reproduce exactly; reports up to their closing Run info section. */
function comparable(run: string): Record<string, string> {
  const read = (f: string) => readFileSync(join(run, f), 'utf8');
  const summary = JSON.parse(read('summary.json'));
  // The run checks no summary as it writes it (its schema costs a short run's start): here every one is checked, as written.
  expect(Summary.parse(summary)).toEqual(summary);
  delete summary.run_info;
  const md = read('report.md');
  const html = read('report.html');
  expect(md.indexOf('## Run info')).toBeGreaterThan(0);
  expect(html.indexOf('<h2>Run info</h2>')).toBeGreaterThan(0);
  return {
    results: read('results.ndjson'),
    junit: read('junit.xml'),
    summary: JSON.stringify(summary),
    md: md.slice(0, md.indexOf('## Run info')),
    html: html.slice(0, html.indexOf('<h2>Run info</h2>')),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shards-'));
  sources = writeMixedCorpus(join(dir, 'corpus'));
  // The single runs to compare with: --jobs 1, plain and continued.
  const singles = await Promise.all([[], ['--continue-after-divergence']].map((extra, i) => cli(['replay', ...sources, ...DIALECTS, ...extra, '--out', join(dir, `single-${i}`), '--jobs', '1', '--quiet'])));
  expect(singles.map((s) => s.status)).toEqual([2, 2]); // the missing source
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay --shard K/N, then merge: byte for byte the single run', () => {
  for (const [n, extra] of [
    [1, []],
    [2, []],
    [3, ['--continue-after-divergence']],
    [7, ['--continue-after-divergence']],
  ] as const) {
    it(`N = ${n}${extra.length ? ' with --continue-after-divergence' : ''}`, async () => {
      const base = join(dir, `n${n}`);
      const single = join(dir, `single-${extra.length}`);
      // Odd shards in worker threads (native lines travel as bytes and are cut at block edges), even ones in process.
      const shards = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          cli(['replay', ...sources, ...DIALECTS, ...extra, '--out', join(base, `shard-${i + 1}`), '--jobs', i % 2 ? '1' : '2', '--force-jobs', '--quiet', '--shard', `${i + 1}/${n}`]),
        ),
      );
      // Exactly one shard meets the missing source (it is striped: its one entry is in block 0).
      expect(shards.map((s) => s.status).sort()).toEqual([...new Array(n - 1).fill(0), 2]);
      const dirs = Array.from({ length: n }, (_, i) => join(base, `shard-${n - i}`)); // any order
      const merged = await cli(['merge', ...dirs, '--out', join(base, 'merged')]);
      expect(merged.stderr).toContain(`merged ${n} shard`);
      expect(merged.stderr).toContain('1 source(s) could not be opened');
      expect(merged.status).toBe(2); // as the single run: the missing source
      expect(existsSync(join(base, 'merged', 'report.html'))).toBe(true);
      const want = comparable(single);
      const got = comparable(join(base, 'merged'));
      for (const k of Object.keys(want)) expect(got[k], k).toBe(want[k]);
      expect(want.results.split('\n').length).toBeGreaterThan(1500);
      expect(want.results).toContain('"status":"unreadable"');

      // Every record in exactly one shard; a shard opens only the many-file folder's files it owns.
      const manifests = dirs.map((d) => ShardManifest.parse(JSON.parse(readFileSync(join(d, 'shard.json'), 'utf8'))));
      const plan = manifests[0].units;
      const files = plan.filter((u) => u.name.includes('/many/'));
      for (const m of manifests) {
        const k = m.run_info.shard!.k!;
        const read = m.reads.map((r) => plan[r.unit]).filter((u) => u.name.includes('/many/'));
        expect(read.every((u) => u.owner === k || u.owner === null)).toBe(true);
        if (n > 1) expect(read.length).toBeLessThan(files.length);
      }
      const summary = JSON.parse(readFileSync(join(base, 'merged', 'summary.json'), 'utf8'));
      expect(summary.run_info.shard).toMatchObject({ k: null, n });
      expect(summary.totals.lines).toBe(manifests.reduce((s, m) => s + m.results.lines, 0));

      // diff and the nightly promotion work on a merged run: nothing changed against the single run.
      const diff = spawnSync('node', [bin, 'diff', single, join(base, 'merged'), '--json'], { encoding: 'utf8' });
      expect(diff.status).toBe(0);
      const d = JSON.parse(diff.stdout);
      expect([d.broken.length, d.fixed.length, d.reclassified.length, d.new.length, d.gone.length]).toEqual([0, 0, 0, 0, 0]);
      if (n === 7) plan.forEach((u) => expect(u.owner === null || (u.owner >= 1 && u.owner <= 7)).toBe(true));
    }, 300_000);
  }
});

describe('merge refuses a wrong set of shards: one line, exit 2, nothing written', () => {
  const run = (out: string, k: number, n: number, dialects = DIALECTS) =>
    cli(['replay', ...sources.slice(0, 2), ...dialects, '--out', out, '--jobs', '1', '--quiet', '--shard', `${k}/${n}`]);
  let base: string;
  beforeAll(async () => {
    base = join(dir, 'refuse');
    await Promise.all([run(join(base, 'a1'), 1, 3), run(join(base, 'a2'), 2, 3), run(join(base, 'a3'), 3, 3), run(join(base, 'b2'), 2, 3, ['--dialect', 'reference'])]);
  }, 300_000);
  const refused = async (dirs: string[], pattern: RegExp) => {
    const out = join(base, `out-${Math.random().toString(36).slice(2)}`);
    const r = await cli(['merge', ...dirs.map((d) => join(base, d)), '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
    return r.stderr;
  };
  it('a missing shard', () => refused(['a1', 'a3'], /missing shard 2 of 3/));
  it('a duplicated shard', () => refused(['a1', 'a2', 'a2', 'a3'], /shard 2\/3 given twice/));
  it('a shard of another run (other dialects)', () => refused(['a1', 'b2', 'a3'], /b2 is shard 2\/3 of another run/));
  it('a folder that is no shard, and a complete run', async () => {
    mkdirSync(join(base, 'empty'), { recursive: true });
    await refused(['a1', 'empty'], /no shard\.json/);
  });
  it('a damaged results file', async () => {
    const copy = join(base, 'a2-damaged');
    mkdirSync(copy, { recursive: true });
    writeFileSync(join(copy, 'shard.json'), readFileSync(join(base, 'a2', 'shard.json')));
    const lines = readFileSync(join(base, 'a2', 'results.ndjson'), 'utf8').split('\n');
    writeFileSync(join(copy, 'results.ndjson'), lines.slice(0, Math.floor(lines.length / 2)).join('\n') + '\n');
    await refused(['a1', 'a2-damaged', 'a3'], /a2-damaged/);
  });
  it('merges the right set (in any order)', async () => {
    const r = await cli(['merge', join(base, 'a3'), join(base, 'a1'), join(base, 'a2'), '--out', join(base, 'ok')]);
    expect(r.status).toBe(0);
    expect(existsSync(join(base, 'ok', 'report.html'))).toBe(true);
  });
  it('--shard must be K/N', async () => {
    for (const bad of ['0/3', '4/3', '2', 'a/b']) {
      const r = await cli(['replay', sources[1], '--dialect', 'reference', '--out', join(base, 'x'), '--shard', bad]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/--shard must be K\/N/);
    }
  });
});
