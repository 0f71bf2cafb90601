#!/usr/bin/env node
// Whole-process replay of the same games in every line-delimited format (not a test).
// Method:
//  1. `dice-dialects generate` (seeded: the same games, byte for byte, every time) writes
//     N dicechess-com games in each format under corpora/generated/bench/;
//  2. each file is replayed by the CLI in a fresh process (`replay --dialect dicechess-com
//     --quiet`), --jobs 1 and --jobs 2, rounds interleaved so that load changes hit every
//     format alike; wall time and peak RSS (`/usr/bin/time -f %M`: the process, all threads);
//     the best of the rounds is kept, and ratios are taken within this run;
//  3. the `chess` control: C generated standard games as ingest-wire NDJSON, `replay
//     --dialect chess --jobs 1` against a plain chessops loop (Chess.default(), isLegal,
//     play per move) that reads and parses the same file in one process, timed the same way;
//  4. startup: a one-game replay, --jobs 1 and --jobs 2; with --startup-only, only this
//     (one generated game), and with --before DIR (another build of the tool, e.g. main's)
//     that build and this one alternate in every round, the load average beside each run
//     (--before also alternates the two builds on every file of step 2);
//  5. with --memory M: each file named M times as the source list (N×M games), --jobs 2,
//     peak RSS.
// The machine is shared: the load average is printed beside every figure.
// Run: npm run build && node scripts/bench-formats.mjs [--games 10000] [--rounds 2] [--chess 4000] [--repeat 1] [--memory 0] [--formats a,b] [--before DIR]
//      node scripts/bench-formats.mjs --startup-only [--rounds 5] [--before /path/to/other/build]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const GAMES = Number(arg('games', 10000));
// --repeat K: each file named K times in the timing rounds (N×K games: the steady state, past start-up and warm-up).
const REPEAT = Number(arg('repeat', 1));
const RUN_GAMES = GAMES * REPEAT;
const ROUNDS = Number(arg('rounds', 2));
const CHESS = Number(arg('chess', 4000));
const MEMORY = Number(arg('memory', 0));
const STARTUP_ONLY = process.argv.includes('--startup-only');
const BEFORE = arg('before', null);
const FORMATS = arg('formats', 'ndjson,ingest-wire,history,csv,dicechess-com').split(',');
const dir = 'corpora/generated/bench';
mkdirSync(dir, { recursive: true });
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const tmp = join(tmpdir(), `bench-formats-${process.pid}`);
mkdirSync(tmp, { recursive: true });

function generate(dialect, games, seed, format, out) {
  if (existsSync(out)) return out;
  const r = spawnSync('node', ['bin/dice-dialects.js', 'generate', '--dialect', dialect, '--games', String(games), '--seed', seed, '--format', format, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`generate failed for ${out}`);
  return out;
}

/** One command in a fresh process: wall seconds, CPU seconds (user + system, all threads) and peak RSS (MB) of the whole process. */
function timed(cmd) {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
  const [rss, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, cpu: user + sys, rss: rss / 1024, stdout: r.stdout };
}

const replay = (sources, jobs, dialect = 'dicechess-com', bin = 'bin/dice-dialects.js') => {
  const out = join(tmp, 'run');
  const r = timed(['node', bin, 'replay', ...sources, '--dialect', dialect, '--jobs', String(jobs), '--quiet', '--out', out]);
  rmSync(out, { recursive: true, force: true });
  return r;
};

if (STARTUP_ONLY) {
  const one = generate('dicechess-com', 1, 'bench-formats', 'ndjson', join(dir, 'formats-1.ndjson'));
  const builds = BEFORE ? { before: join(BEFORE, 'bin/dice-dialects.js'), after: 'bin/dice-dialects.js' } : { this: 'bin/dice-dialects.js' };
  const runs = {};
  console.log(`startup: a one-game replay (native NDJSON), whole process, ${ROUNDS} rounds${BEFORE ? `, before (${BEFORE}) and after alternating` : ''}; node ${process.version}; load ${load()}`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const jobs of [1, 2]) {
      for (const [name, bin] of round % 2 ? Object.entries(builds).reverse() : Object.entries(builds)) {
        const r = replay([one], jobs, 'dicechess-com', bin);
        (runs[`${name} ${jobs}`] ??= []).push(r);
        console.log(`  round ${round + 1}: ${name.padEnd(6)} --jobs ${jobs}: ${r.seconds.toFixed(3)} s (CPU ${r.cpu.toFixed(2)} s); load ${load()}`);
      }
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [key, rs] of Object.entries(runs)) {
    const w = rs.map((r) => r.seconds);
    console.log(`  ${key.padEnd(8)}: best ${Math.min(...w).toFixed(2)} s, median ${median(w).toFixed(2)} s (CPU median ${median(rs.map((r) => r.cpu)).toFixed(2)} s)`);
  }
  console.log(`load ${load()}`);
  rmSync(tmp, { recursive: true, force: true });
  process.exit(0);
}

console.log(`bench-formats: node ${process.version}, ${GAMES} games per format, best of ${ROUNDS} rounds; load average ${load()}`);
const files = Object.fromEntries(FORMATS.map((f) => [f, generate('dicechess-com', GAMES, 'bench-formats', f, join(dir, `formats-${GAMES}.${f}`))]));
for (const f of FORMATS) console.log(`  ${f}: ${(statSync(files[f]).size / 1e6).toFixed(1)} MB`);

// With --before DIR, that build (e.g. main's) and this one alternate on every file and jobs; ratios are this build's.
const builds = BEFORE ? [['before', join(BEFORE, 'bin/dice-dialects.js')], ['after', 'bin/dice-dialects.js']] : [['', 'bin/dice-dialects.js']];
const best = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const f of FORMATS) {
    for (const jobs of [1, 2]) {
      for (const [name, bin] of round % 2 ? [...builds].reverse() : builds) {
        const r = replay(Array.from({ length: REPEAT }, () => files[f]), jobs, 'dicechess-com', bin);
        const key = `${name}${f} ${jobs}`;
        if (!best[key] || r.seconds < best[key].seconds) best[key] = r;
        console.log(`  round ${round + 1}: ${name ? `${name.padEnd(6)} ` : ''}${f.padEnd(13)} --jobs ${jobs}: ${r.seconds.toFixed(2)} s (CPU ${r.cpu.toFixed(2)} s), ${fmt(RUN_GAMES / r.seconds)} games/s, peak RSS ${r.rss.toFixed(0)} MB; load ${load()}`);
      }
    }
  }
}
console.log(`replay, whole process, ${fmt(RUN_GAMES)} games${REPEAT > 1 ? ` (each file named ${REPEAT}×)` : ''} (best of ${ROUNDS}); load ${load()}`);
for (const [name] of builds) {
  const native = best[`${name}ndjson 2`];
  if (name) console.log(`  ${name}:`);
  for (const f of FORMATS) {
    const one = best[`${name}${f} 1`];
    const two = best[`${name}${f} 2`];
    const ratio = native ? `${(two.seconds / native.seconds).toFixed(2)}× native's time (CPU ${(two.cpu / native.cpu).toFixed(2)}×); target ≤ 1.3×` : '';
    console.log(
      `  ${f.padEnd(13)} --jobs 2 ${two.seconds.toFixed(2)} s = ${fmt(RUN_GAMES / two.seconds)} games/s (${ratio}), --jobs 1 ${one.seconds.toFixed(2)} s: speed-up ${(one.seconds / two.seconds).toFixed(2)}×; CPU ${two.cpu.toFixed(2)} s / ${one.cpu.toFixed(2)} s; peak RSS ${Math.max(one.rss, two.rss).toFixed(0)} MB`,
    );
  }
}

if (CHESS > 0) {
  const file = generate('chess', CHESS, 'bench-chess', 'ingest-wire', join(dir, `chess-${CHESS}.ingest-wire`));
  const loop = 'scripts/bench-chessops-loop.mjs';
  const ops = { seconds: Infinity };
  const ours = { seconds: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    const a = replay([file], 1, 'chess');
    const b = timed(['node', loop, file]);
    if (a.seconds < ours.seconds) Object.assign(ours, a);
    if (b.seconds < ops.seconds) Object.assign(ops, b);
    console.log(`  round ${round + 1}: chess control --jobs 1 ${a.seconds.toFixed(2)} s (CPU ${a.cpu.toFixed(2)} s), chessops loop ${b.seconds.toFixed(2)} s (CPU ${b.cpu.toFixed(2)} s); load ${load()}`);
  }
  console.log(`chess control, whole process, ${fmt(CHESS)} standard games (ingest-wire): ours --jobs 1 ${ours.seconds.toFixed(2)} s, chessops loop ${ops.seconds.toFixed(2)} s: ratio ${(ops.seconds / ours.seconds).toFixed(2)} (CPU ${(ops.cpu / ours.cpu).toFixed(2)}; target ≥ 1.0); load ${load()}`);
}

{
  const one = join(tmp, 'one.ndjson');
  writeFileSync(one, `${spawnSync('head', ['-n', '1', files[FORMATS.includes('ndjson') ? 'ndjson' : FORMATS[0]]], { encoding: 'utf8' }).stdout}`);
  const s = { 1: Infinity, 2: Infinity };
  const c = { 1: Infinity, 2: Infinity };
  for (let round = 0; round < Math.max(3, ROUNDS); round++) {
    for (const jobs of [1, 2]) {
      const r = replay([one], jobs);
      s[jobs] = Math.min(s[jobs], r.seconds);
      c[jobs] = Math.min(c[jobs], r.cpu);
    }
  }
  console.log(`startup: a one-game replay (native NDJSON), whole process: --jobs 1 ${s[1].toFixed(2)} s (CPU ${c[1].toFixed(2)} s), --jobs 2 ${s[2].toFixed(2)} s (CPU ${c[2].toFixed(2)} s); load ${load()}`);
}

if (MEMORY > 0) {
  for (const f of FORMATS) {
    const r = replay(Array.from({ length: MEMORY }, () => files[f]), 2);
    console.log(`memory: ${f} named ${MEMORY}× (${fmt(GAMES * MEMORY)} games), --jobs 2: ${r.seconds.toFixed(1)} s = ${fmt((GAMES * MEMORY) / r.seconds)} games/s, peak RSS ${r.rss.toFixed(0)} MB (target < 300 MB); load ${load()}`);
  }
}
rmSync(tmp, { recursive: true, force: true });
