#!/usr/bin/env node
// Generates the reference corpus of corpora/README.md (50,000 games by default) into
// corpora/generated/ and prints its statistics and the generation speed as Markdown.
// Runs on dist/: build first with `npx tsc -p tsconfig.build.json`.
//
//   node scripts/corpus-stats.mjs [--games 50000] [--dialect reference] [--format ndjson]
//                                 [--seed stats-50k] [--jobs N] [--out PATH]
import { availableParallelism, loadavg } from 'node:os';
import { statSync } from 'node:fs';
import { loadDialect } from '../dist/dialects/index.js';
import { generateCorpus } from '../dist/generate/run.js';
import { DEFAULT_RATES } from '../dist/generate/self-play.js';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const games = Number(opt('games', '50000'));
const dialectName = opt('dialect', 'reference');
const format = opt('format', 'ndjson');
const seed = opt('seed', 'stats-50k');
const jobs = Number(opt('jobs', String(availableParallelism())));
const out = opt('out', `corpora/generated/${dialectName}-${games}.${format === 'ndjson' ? '' : `${format}.`}ndjson.gz`.replace('..', '.'));

const loaded = loadDialect(dialectName);
if (!loaded.ok) {
  console.error(loaded.error.map((p) => p.message).join('; '));
  process.exit(2);
}
const before = loadavg()[0];
const res = await generateCorpus({
  dialect: loaded.value,
  overrides: [],
  games,
  seed,
  format,
  out,
  bots: ['random', 'greedy'],
  rates: DEFAULT_RATES,
  inject: [],
  jobs,
  onProgress: (p) => process.stderr.write(`\r${p.games}/${p.total} games${p.done ? '\n' : ''}`),
});
const s = res.stats;
const secs = res.elapsedMs / 1000;
const pct = (n, d) => `${((100 * n) / d).toFixed(2)} %`;
const one = (n, d) => (n === 0 ? '—' : `1 in ${(d / n).toFixed(1)}`);
const rows = (m) =>
  Object.entries(m)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `| ${k} | ${v} | ${pct(v, s.games)} |`)
    .join('\n');

console.log(`### ${games.toLocaleString('en')}-game ${dialectName} corpus (seed \`${seed}\`, format ${format})

Generated in ${secs.toFixed(1)} s: ${Math.round(games / secs)} games/s with ${res.jobs} worker thread${res.jobs === 1 ? '' : 's'} (${availableParallelism()} cores, load average ${before.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after); ${(statSync(out).size / 1048576).toFixed(1)} MB gzip-compressed.

| measure | value |
|---|---|
| games | ${s.games} |
| turns (passes included) | ${s.turns} |
| mean turns per game | ${(s.turns / s.games).toFixed(2)} |
| micro-moves per turn played | ${(s.microMoves / Math.max(1, s.turns - s.passes)).toFixed(2)} |
| forced passes, all turns | ${pct(s.passes, s.turns)} (${one(s.passes, s.turns)}) |
| forced passes, opening roll (White's first) | ${pct(s.openingPasses, s.openingRolls)} (${one(s.openingPasses, s.openingRolls)}) |
| forced passes, each side's first roll | ${pct(s.firstRollPasses, s.firstRolls)} (${one(s.firstRollPasses, s.firstRolls)}) |

| result | games | share |
|---|---|---|
${rows(s.results)}

| termination | games | share |
|---|---|---|
${rows(s.terminations)}
`);
