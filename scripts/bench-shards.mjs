#!/usr/bin/env node
// Benchmark of sharded runs (not a test). Method:
//  1. a fixed generated corpus (seeded) of GAMES reference games in native NDJSON, cut into
//     FILES files of equal game counts under corpora/generated/bench-shards/ (a many-file
//     corpus: every shard gets whole files);
//  2. whole processes, as a cluster runs them: the unsharded `replay --jobs 1`, then N = 2
//     and N = 4 shards (`replay --shard K/N --jobs 1`) run ONE AFTER ANOTHER on this machine,
//     then `merge`; wall time of each process; the merged run is compared byte for byte
//     with the unsharded one (results.ndjson);
//  3. the merge of 1,000,000 games' results: the N = 4 shard folders scaled up in process
//     (each shard's results, reads and counters repeated as if the FILES files were named
//     R times on the command line, so the manifests stay consistent), then `merge` timed.
// The machine is shared: the load average is printed beside each figure; compare ratios.
// Run: npm run build && node scripts/bench-shards.mjs [games=12000] [files=40] [mergeGames=1000000]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunAccumulator } from '../dist/run/accumulator.js';

const GAMES = Number(process.argv[2] ?? 12000);
const FILES = Number(process.argv[3] ?? 40);
const MERGE_GAMES = Number(process.argv[4] ?? 1_000_000);
const dir = `corpora/generated/bench-shards/${GAMES}x${FILES}`;
const work = join(tmpdir(), `bench-shards-${process.pid}`);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const cli = (args) => {
  const t = performance.now();
  const r = spawnSync('node', ['bin/dice-dialects.js', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return (performance.now() - t) / 1000;
};

if (!existsSync(join(dir, 'part-000.ndjson'))) {
  mkdirSync(dir, { recursive: true });
  const all = join(dir, 'all.ndjson');
  cli(['generate', '--dialect', 'reference', '--games', String(GAMES), '--seed', 'bench-shards', '--format', 'ndjson', '--out', all]);
  const lines = readFileSync(all, 'utf8').split('\n').filter(Boolean);
  const per = Math.ceil(lines.length / FILES);
  for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `part-${String(f).padStart(3, '0')}.ndjson`), `${lines.slice(f * per, (f + 1) * per).join('\n')}\n`);
  rmSync(all);
}
mkdirSync(work, { recursive: true });
const common = [dir, '--dialect', 'reference', '--jobs', '1', '--quiet'];
console.log(`node ${process.version}, ${cpus().length} cores; corpus ${fmt(GAMES)} reference games (native NDJSON) in ${FILES} files; load average ${load()}`);

const single = join(work, 'single');
const t1 = cli(['replay', ...common, '--out', single]);
console.log(`N = 1 (no --shard): ${t1.toFixed(1)} s = ${fmt(GAMES / t1)} games/s on one core; load ${load()}`);

for (const n of [2, 4]) {
  const times = [];
  const dirs = [];
  for (let k = 1; k <= n; k++) {
    dirs.push(join(work, `n${n}-shard-${k}`));
    times.push(cli(['replay', ...common, '--shard', `${k}/${n}`, '--out', dirs.at(-1)]));
  }
  const merged = join(work, `n${n}-merged`);
  const tm = cli(['merge', ...dirs, '--out', merged, '--quiet']);
  const same = readFileSync(join(merged, 'results.ndjson')).equals(readFileSync(join(single, 'results.ndjson')));
  const sum = times.reduce((a, b) => a + b, 0);
  const max = Math.max(...times);
  const min = Math.min(...times);
  console.log(
    `N = ${n}, one after another: shards ${times.map((t) => t.toFixed(1)).join(' + ')} s = ${sum.toFixed(1)} s (${(sum / t1).toFixed(2)}× the single run's work); ` +
      `slowest/fastest shard ${(max / min).toFixed(2)}; on ${n} cores at once: ${max.toFixed(1)} s + merge ${tm.toFixed(1)} s; merged = single: ${same}; load ${load()}`,
  );
}

// 3. 1,000,000 games' results: the N = 4 shards repeated R times (as if the files were named R times).
const R = Math.ceil(MERGE_GAMES / GAMES);
const bigDirs = [];
for (let k = 1; k <= 4; k++) {
  const from = join(work, `n4-shard-${k}`);
  const to = join(work, `big-shard-${k}`);
  mkdirSync(to, { recursive: true });
  const m = JSON.parse(readFileSync(join(from, 'shard.json'), 'utf8'));
  const span = m.reads.reduce((s, r) => Math.max(s, r.localStart + r.records), 0);
  const results = readFileSync(join(from, 'results.ndjson'), 'utf8').split('\n').filter(Boolean);
  const out = createWriteStream(join(to, 'results.ndjson'));
  const hash = createHash('sha256');
  for (let r = 0; r < R; r++) {
    const text = results.map((l) => l.replace(/,"index":(\d+),/, (_, i) => `,"index":${Number(i) + r * span},`)).join('\n') + '\n';
    hash.update(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  const acc = new RunAccumulator(m.state.dialects);
  for (let r = 0; r < R; r++) acc.merge(RunAccumulator.fromState(m.state).state((i) => i + r * span));
  const units = m.units.length;
  m.units = Array.from({ length: R }, () => m.units).flat();
  m.reads = Array.from({ length: R }, (_, r) => m.reads.map((x) => ({ ...x, unit: x.unit + r * units, localStart: x.localStart + r * span }))).flat();
  m.results = { lines: results.length * R, sha256: hash.digest('hex') };
  m.records *= R;
  m.state = acc.state();
  m.run_info.shard.runKey = 'bench-scaled';
  writeFileSync(join(to, 'shard.json'), JSON.stringify(m));
  bigDirs.push(to);
}
let bytes = 0;
for (const d of bigDirs) for await (const c of createReadStream(join(d, 'results.ndjson'))) bytes += c.length;
const loadBefore = load();
const tBig = cli(['merge', ...bigDirs, '--out', join(work, 'big-merged'), '--quiet']);
console.log(`merge of ${fmt(R * GAMES)} games' results (4 shards, ${(bytes / 2 ** 20).toFixed(0)} MB of results.ndjson, one dialect): ${tBig.toFixed(1)} s (whole process); load ${loadBefore} → ${load()}`);
rmSync(work, { recursive: true, force: true });
