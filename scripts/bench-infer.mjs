#!/usr/bin/env node
// Benchmark of `infer` (not a test). Method:
//  1. the fixed generated reference corpus scripts/bench-replay.mjs uses
//     (corpora/generated/bench/reference-50000.ndjson, `generate --seed bench-replay`), made if missing;
//  2. whole processes, as users run them, on the first N games (`--limit N`, default all):
//     `replay --dialect reference --jobs 2` (the baseline) and
//     `infer --dialect reference --jobs 2 --json` with the default options (every open
//     option of reference plus maximum and enPassant.window), wall time and peak RSS
//     (/usr/bin/time -f %M when present);
//     (opportunities of every option counted, evidence by absence weighed, examples searched);
//  3. infer's own split (infer.json `timing`): milliseconds judging every candidate
//     dialect vs counting opportunities, summed over the worker threads, and how many
//     turn starts a cheap test settled vs took the exact comparison.
// The machine is shared: figures are printed with the load average; compare the ratio.
// Run: npm run build && node scripts/bench-infer.mjs [games=50000]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
// The verdict in words as every printer of infer says it (once: "undecided" is not followed by "(undecided)").
import { verdictPhrase } from '../dist/infer/verdict-phrase.js';

const GAMES = Number(process.argv[2] ?? 50000);
const dir = 'corpora/generated/bench';
const corpus = join(dir, 'reference-50000.ndjson');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

mkdirSync(dir, { recursive: true });
if (!existsSync(corpus)) {
  const t = performance.now();
  const r = spawnSync('node', ['bin/dice-dialects.js', 'generate', '--dialect', 'reference', '--games', '50000', '--seed', 'bench-replay', '--format', 'ndjson', '--out', corpus], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('generate failed');
  console.log(`generated 50,000 reference games in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** Runs the CLI as a child process; wall seconds, peak RSS (MB, or null), stdout. */
function whole(args) {
  const argv = ['bin/dice-dialects.js', ...args];
  const t = performance.now();
  const r = timeBin ? spawnSync(timeBin, ['-f', '%M', 'node', ...argv], { encoding: 'utf8', maxBuffer: 1 << 28 }) : spawnSync('node', argv, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const sec = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const rss = timeBin ? Number(r.stderr.trim().split('\n').pop()) / 1024 : null;
  return { sec, rss, stdout: r.stdout };
}

const limit = GAMES < 50000 ? ['--limit', String(GAMES)] : [];
console.log(`node ${process.version}; ${fmt(GAMES)} games of ${corpus}; load average ${load()}`);
const out = join(tmpdir(), `bench-infer-${process.pid}`);
const replay = whole(['replay', corpus, '--dialect', 'reference', '--jobs', '2', '--quiet', '--out', `${out}-replay`, ...limit]);
console.log(`replay --dialect reference --jobs 2: ${replay.sec.toFixed(1)} s = ${fmt(GAMES / replay.sec)} games/s, peak RSS ${replay.rss?.toFixed(0) ?? '?'} MB; load ${load()}`);
const infer = whole(['infer', corpus, '--dialect', 'reference', '--jobs', '2', '--quiet', '--json', '--out', `${out}-infer`, ...limit]);
const doc = JSON.parse(infer.stdout);
rmSync(`${out}-replay`, { recursive: true, force: true });
rmSync(`${out}-infer`, { recursive: true, force: true });
const t = doc.timing;
const variants = 1 + doc.options.reduce((n, o) => n + o.values.length - 1, 0);
console.log(`infer --dialect reference --jobs 2 (options ${doc.options.map((o) => o.path).join(', ')}; ${variants} option variants + ${doc.dialects.length} named dialects per game): ${infer.sec.toFixed(1)} s = ${fmt(doc.games / infer.sec)} games/s, peak RSS ${infer.rss?.toFixed(0) ?? '?'} MB; load ${load()}`);
console.log(`  extrapolated to 50,000 games: ${((infer.sec * 50000) / doc.games).toFixed(0)} s (target < 180 s); infer / replay time: ${(infer.sec / replay.sec).toFixed(1)}×`);
const busy = t.judgeMs + t.opportunityMs;
console.log(`  thread time: judging ${(t.judgeMs / 1000).toFixed(1)} s (${((100 * t.judgeMs) / busy).toFixed(0)} %), opportunities ${(t.opportunityMs / 1000).toFixed(1)} s (${((100 * t.opportunityMs) / busy).toFixed(0)} %); turn starts settled cheaply ${fmt(t.cheapTurns)}, by the exact comparison ${fmt(t.exactTurns)}`);
console.log(`  confirmation: ${doc.confirmation.judged ? 'a second pass' : 'no second pass'} (${doc.confirmation.note})`);
for (const o of doc.options) console.log(`  ${o.path}: ${verdictPhrase(o)}; ${o.values.map((v) => `${JSON.stringify(v.value)} ${v.conforming}/${v.decisive}/${v.opportunities.total}`).join(', ')} (conforming/decisive/opportunities)${o.favoured ? `; favoured ${o.favoured.map((v) => JSON.stringify(v)).join(', ')}` : ''}`);
