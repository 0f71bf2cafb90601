#!/usr/bin/env node
// What judging under more dialects costs (not a test): the weight src/run/auto-jobs.ts's
// replayWeight gives a replay's dialects when it sizes the threads. Whole processes, CPU time
// (user + system, /usr/bin/time) of `replay <corpus> --jobs 1 --quiet` under the corpus's own
// dialect, under --all-dialects, and under --all-dialects --continue-after-divergence, less a
// one-game replay's (start-up); the median of the rounds; each cost as a multiple of the own
// dialect's, beside what replayWeight counts for it.
// Run: npm run build && node scripts/bench-dialect-cost.mjs [--rounds 3] [FILE:DIALECT ...]
//      (default: the samples, each under its own dialect)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { replayWeight } from '../dist/run/auto-jobs.js';
import { listDialects } from '../dist/dialects/index.js';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const ROUNDS = at < 0 ? 3 : Number(args.splice(at, 2)[1]);
const corpora = (args.length ? args : [
  'corpora/samples/reference/games.ndjson.gz:reference',
  'corpora/samples/chess/games.ndjson.gz:chess',
  'corpora/samples/wikipedia-two-dice/games.ingest-wire.ndjson.gz:wikipedia-two-dice',
  'corpora/samples/brainking-one-die/games.ndjson.gz:brainking-one-die',
  'corpora/samples/beturanga/games.ndjson.gz:beturanga',
]).map((a) => a.split(':'));
const dialects = listDialects().length;
const tmp = mkdtempSync(join(tmpdir(), 'bench-dialect-cost-'));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

function cpu(replayArgs) {
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', 'node', 'bin/dice-dialects.js', 'replay', ...replayArgs, '--jobs', '1', '--quiet', '--out', join(tmp, 'run')], { encoding: 'utf8' });
    if (r.status !== 0 && r.status !== 1) throw new Error(`replay ${replayArgs.join(' ')} failed: ${r.stderr}`);
    const [user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    runs.push(user + sys);
  }
  return runs.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

try {
  // The start-up: one game of the first corpus, under its own dialect.
  const [firstFile, firstDialect] = corpora[0];
  const text = firstFile.endsWith('.gz') ? gunzipSync(readFileSync(firstFile)) : readFileSync(firstFile);
  // Its format is told from its content, whatever the name.
  const one = join(tmp, 'one.ndjson');
  writeFileSync(one, `${text.toString('utf8').split('\n')[0]}\n`);
  const base = cpu([one, '--dialect', firstDialect]);
  console.log(`start-up (one game): ${base.toFixed(2)} s CPU; ${dialects} dialects; median of ${ROUNDS}; load ${load()}`);
  for (const [file, dialect] of corpora) {
    const own = cpu([file, '--dialect', dialect]) - base;
    const all = (cpu([file, '--all-dialects']) - base) / own;
    const cont = (cpu([file, '--all-dialects', '--continue-after-divergence']) - base) / own;
    console.log(
      `${file} (${dialect}): own ${own.toFixed(2)} s CPU; --all-dialects ${all.toFixed(2)}× (counted ${replayWeight(dialects, false)}); ` +
        `with --continue-after-divergence ${cont.toFixed(2)}× (counted ${replayWeight(dialects, true)}); load ${load()}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
