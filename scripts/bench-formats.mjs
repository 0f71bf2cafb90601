#!/usr/bin/env node
// Whole-process replay of the same games in every line-delimited format (not a test).
// Method:
//  1. `dice-dialects generate` (seeded: the same games, byte for byte, every time) writes
//     N dicechess-com games in each format under corpora/generated/bench/;
//  2. each file is replayed by the CLI in a fresh process (`replay --dialect dicechess-com
//     --quiet`), --jobs 1 and --jobs 2, rounds interleaved so that load changes hit every
//     format alike; wall time, CPU time and peak RSS (`/usr/bin/time -f %M`: the process, all
//     threads); the median of the rounds is kept, with the spread (min / median / max), and
//     ratios are taken within this run; per-ply nanoseconds are the wall (and CPU) time over
//     the plies (recorded micro-moves) of the file, start-up included;
//  3. the `chess` control: C generated standard games as ingest-wire NDJSON, `replay
//     --dialect chess --jobs 1` against a plain chessops loop (Chess.default(), isLegal,
//     play per move) that reads and parses the same file in one process, alternating, timed
//     the same way; the ratio of the medians, and both per ply beside rust pgn-reader's
//     ~120 ns a ply (parsing and legality on lichess dumps, one core: the physical reference);
//  4. startup: a one-game replay, --jobs 1 and --jobs 2; with --startup-only, only this
//     (one generated game); where NODE_EXTRA_CA_CERTS is set, again without it (Node 20 reads
//     the whole certificate bundle as it starts, before the tool's first line);
//  5. with --before DIR (another build of the tool, e.g. main's), that build and this one
//     alternate in every round of steps 2, 3 and 4, the load average beside each run;
//  6. with --memory M: each file named M times as the source list (N×M games), --jobs 2,
//     peak RSS (with --before, both builds);
//  7. with --crossover n1,n2,…: files of n1, n2, … games in each format, --jobs 1 against
//     --jobs 2, --jobs 2 --force-jobs and the default (no --jobs), alternating, median of the
//     rounds: where a worker starts to pay (src/run/auto-jobs.ts takes its thresholds from the
//     forced runs), and that --jobs 2 and the default are never slower than --jobs 1.
// The machine is shared: the load average is printed beside every figure.
// Run: npm run build && node scripts/bench-formats.mjs [--games 10000] [--rounds 5] [--chess 4000] [--repeat 1] [--memory 0] [--formats a,b] [--before DIR]
//      node scripts/bench-formats.mjs --startup-only [--rounds 5] [--before /path/to/other/build]
//      node scripts/bench-formats.mjs --chess-only [--chess 4000] [--rounds 5] [--before DIR]
//      node scripts/bench-formats.mjs --crossover 50,100,200,400,800,1600 [--rounds 5] [--formats a,b]
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const GAMES = Number(arg('games', 10000));
// --repeat K: each file named K times in the timing rounds (N×K games: the steady state, past start-up and warm-up).
const REPEAT = Number(arg('repeat', 1));
const RUN_GAMES = GAMES * REPEAT;
const ROUNDS = Number(arg('rounds', 5));
const CHESS = Number(arg('chess', 4000));
const MEMORY = Number(arg('memory', 0));
const STARTUP_ONLY = process.argv.includes('--startup-only');
const CHESS_ONLY = process.argv.includes('--chess-only');
const CROSSOVER = arg('crossover', null);
const BEFORE = arg('before', null);
const FORMATS = arg('formats', 'ndjson,ingest-wire,history,csv,dicechess-com').split(',');
const PGN_READER_NS = 120;
const dir = 'corpora/generated/bench';
mkdirSync(dir, { recursive: true });
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const tmp = join(tmpdir(), `bench-formats-${process.pid}`);
mkdirSync(tmp, { recursive: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** min / median / max of a list of seconds. */
const spread = (xs, digits = 2) => `${Math.min(...xs).toFixed(digits)} / ${median(xs).toFixed(digits)} / ${Math.max(...xs).toFixed(digits)}`;
const loads = [];
const noteLoad = () => {
  const l = loadavg()[0];
  loads.push(l);
  return load();
};
const loadRange = () => (loads.length ? `load (1 min) ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}` : `load ${load()}`);

// With --before DIR, that build (e.g. main's) and this one alternate, the order swapped every round.
const BUILDS = BEFORE ? [['before', join(BEFORE, 'bin/dice-dialects.js')], ['after', 'bin/dice-dialects.js']] : [['this', 'bin/dice-dialects.js']];
const inTurn = (round, list) => (round % 2 ? [...list].reverse() : list);

function generate(dialect, games, seed, format, out) {
  if (existsSync(out)) return out;
  const r = spawnSync('node', ['bin/dice-dialects.js', 'generate', '--dialect', dialect, '--games', String(games), '--seed', seed, '--format', format, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`generate failed for ${out}`);
  return out;
}

/** One command in a fresh process: wall seconds, CPU seconds (user + system, all threads) and peak RSS (MB) of the whole process. */
function timed(cmd, env = process.env) {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 26, env });
  const seconds = (performance.now() - t) / 1000;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd.join(' ')} failed: ${r.stderr}`);
  const [rss, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, cpu: user + sys, rss: rss / 1024, stdout: r.stdout, stderr: r.stderr };
}

// jobs: a number (--jobs N), 'auto' (no --jobs) or 'N!' (--jobs N --force-jobs: the workers whatever the input's size).
const jobsArgs = (jobs) => (jobs === 'auto' ? [] : String(jobs).endsWith('!') ? ['--jobs', String(jobs).slice(0, -1), '--force-jobs'] : ['--jobs', String(jobs)]);
const replay = (sources, jobs, dialect = 'dicechess-com', bin = 'bin/dice-dialects.js', quiet = true, env = process.env) => {
  const out = join(tmp, 'run');
  const r = timed(['node', bin, 'replay', ...sources, '--dialect', dialect, ...jobsArgs(jobs), ...(quiet ? ['--quiet'] : []), '--out', out], env);
  rmSync(out, { recursive: true, force: true });
  return r;
};

/** Plies (recorded micro-moves) of a JSON-lines file whose documents hold `turns[].moves` (native NDJSON, ingest-wire). */
async function plies(file) {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    for (const t of JSON.parse(line).turns) n += t.moves.length;
  }
  return n;
}
const nsPerPly = (seconds, n) => (n > 0 ? `${fmt((seconds * 1e9) / n)} ns/ply` : '');

/** Runs `run(key)` for every key, `rounds` times, the keys' order swapped each round; the runs of each key. */
function alternate(keys, rounds, run, label) {
  const runs = Object.fromEntries(keys.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    for (const key of inTurn(round, keys)) {
      const r = run(key);
      runs[key].push(r);
      console.log(`  round ${round + 1}: ${label(key).padEnd(34)} ${r.seconds.toFixed(3)} s (CPU ${r.cpu.toFixed(2)} s), peak RSS ${r.rss.toFixed(0)} MB; load ${noteLoad()}`);
    }
  }
  return runs;
}
const med = (rs, f = (r) => r.seconds) => median(rs.map(f));

function startup(rounds) {
  startupIn(rounds, process.env, '');
  // Node 20 reads NODE_EXTRA_CA_CERTS's whole bundle as it starts, before any of the tool's code runs:
  // where the machine sets it, the same figures again without it (Node's default).
  if (process.env.NODE_EXTRA_CA_CERTS) {
    const { NODE_EXTRA_CA_CERTS: _, ...env } = process.env;
    startupIn(rounds, env, ' without NODE_EXTRA_CA_CERTS (this machine sets it)');
  }
}

function startupIn(rounds, env, label) {
  const one = generate('dicechess-com', 1, 'bench-formats', 'ndjson', join(dir, 'formats-1.ndjson'));
  const keys = BUILDS.flatMap(([name, bin]) => [1, 2].map((jobs) => JSON.stringify([name, bin, jobs])));
  console.log(`startup${label}: a one-game replay (native NDJSON), whole process, ${rounds} rounds, builds alternating; node ${process.version}; load ${noteLoad()}`);
  const runs = alternate(keys, rounds, (k) => {
    const [, bin, jobs] = JSON.parse(k);
    return replay([one], jobs, 'dicechess-com', bin, true, env);
  }, (k) => {
    const [name, , jobs] = JSON.parse(k);
    return `${name} --jobs ${jobs}`;
  });
  for (const k of keys) {
    const [name, , jobs] = JSON.parse(k);
    const w = runs[k].map((r) => r.seconds);
    console.log(`  ${name.padEnd(6)} --jobs ${jobs}: median ${median(w).toFixed(3)} s (min / median / max ${spread(w, 3)} s; CPU median ${med(runs[k], (r) => r.cpu).toFixed(2)} s); target ≤ 0.15 s`);
  }
  const node = alternate(['node'], rounds, () => timed(['node', '-e', '0'], env), () => 'node -e 0');
  console.log(`  node alone: median ${med(node.node).toFixed(3)} s; ${loadRange()}`);
}

async function chessControl(rounds) {
  const file = generate('chess', CHESS, 'bench-chess', 'ingest-wire', join(dir, `chess-${CHESS}.ingest-wire`));
  const n = await plies(file);
  const loop = 'scripts/bench-chessops-loop.mjs';
  const keys = [...BUILDS.map(([name]) => name), 'chessops'];
  console.log(`chess control: ${fmt(CHESS)} standard games as ingest-wire NDJSON (${fmt(n)} plies), ours (replay --dialect chess --jobs 1) against a chessops loop, alternating, ${rounds} rounds; load ${noteLoad()}`);
  const runs = alternate(keys, rounds, (k) => (k === 'chessops' ? timed(['node', loop, file]) : replay([file], 1, 'chess', Object.fromEntries(BUILDS)[k])), (k) => (k === 'chessops' ? 'chessops loop' : `${k} chess control --jobs 1`));
  const ops = med(runs.chessops);
  for (const k of keys) {
    const w = runs[k].map((r) => r.seconds);
    const m = median(w);
    const ratio = k === 'chessops' ? '' : `; chessops / ours ${(ops / m).toFixed(2)} (per round: ${runs[k].map((r, i) => (runs.chessops[i].seconds / r.seconds).toFixed(2)).join(', ')}; CPU ${(med(runs.chessops, (r) => r.cpu) / med(runs[k], (r) => r.cpu)).toFixed(2)}); target ≥ 1.25`;
    console.log(`  ${k.padEnd(8)}: median ${m.toFixed(2)} s (min / median / max ${spread(w)} s), ${nsPerPly(m, n)} wall, ${nsPerPly(med(runs[k], (r) => r.cpu), n)} CPU${ratio}`);
  }
  console.log(`  (rust pgn-reader: ~${PGN_READER_NS} ns/ply, one core, parsing and legality); ${loadRange()}`);
}

async function formats(rounds) {
  console.log(`bench-formats: node ${process.version}, ${GAMES} games per format, median of ${rounds} rounds, builds alternating; load average ${noteLoad()}`);
  const files = Object.fromEntries(FORMATS.map((f) => [f, generate('dicechess-com', GAMES, 'bench-formats', f, join(dir, `formats-${GAMES}.${f}`))]));
  const n = FORMATS.includes('ndjson') ? (await plies(files.ndjson)) * REPEAT : 0;
  for (const f of FORMATS) console.log(`  ${f}: ${(statSync(files[f]).size / 1e6).toFixed(1)} MB`);
  const keys = FORMATS.flatMap((f) => [1, 2].flatMap((jobs) => BUILDS.map(([name]) => JSON.stringify([f, jobs, name]))));
  const bins = Object.fromEntries(BUILDS);
  const runs = {};
  for (let round = 0; round < rounds; round++) {
    for (const f of FORMATS) {
      for (const jobs of [1, 2]) {
        for (const [name] of inTurn(round, BUILDS)) {
          const key = JSON.stringify([f, jobs, name]);
          const r = replay(Array.from({ length: REPEAT }, () => files[f]), jobs, 'dicechess-com', bins[name]);
          (runs[key] ??= []).push(r);
          console.log(`  round ${round + 1}: ${name.padEnd(6)} ${f.padEnd(13)} --jobs ${jobs}: ${r.seconds.toFixed(2)} s (CPU ${r.cpu.toFixed(2)} s), ${fmt(RUN_GAMES / r.seconds)} games/s, peak RSS ${r.rss.toFixed(0)} MB; load ${noteLoad()}`);
        }
      }
    }
  }
  console.log(`replay, whole process, ${fmt(RUN_GAMES)} games${REPEAT > 1 ? ` (each file named ${REPEAT}×)` : ''}${n ? `, ${fmt(n)} plies` : ''}, median of ${rounds} (min / median / max); ${loadRange()}`);
  for (const [name] of BUILDS) {
    console.log(`  ${name}:`);
    const native = runs[JSON.stringify(['ndjson', 2, name])];
    for (const f of FORMATS) {
      const one = runs[JSON.stringify([f, 1, name])];
      const two = runs[JSON.stringify([f, 2, name])];
      const m2 = med(two);
      const m1 = med(one);
      const ratio = native ? `${(m2 / med(native)).toFixed(2)}× native's time (CPU ${(med(two, (r) => r.cpu) / med(native, (r) => r.cpu)).toFixed(2)}×)` : '';
      console.log(
        `    ${f.padEnd(13)} --jobs 2 ${m2.toFixed(2)} s [${spread(two.map((r) => r.seconds))}] = ${fmt(RUN_GAMES / m2)} games/s${n ? `, ${nsPerPly(m2, n)}` : ''} (${ratio}); --jobs 1 ${m1.toFixed(2)} s [${spread(one.map((r) => r.seconds))}]: speed-up ${(m1 / m2).toFixed(2)}×; CPU ${med(two, (r) => r.cpu).toFixed(2)} s / ${med(one, (r) => r.cpu).toFixed(2)} s; peak RSS ${Math.max(...one.map((r) => r.rss), ...two.map((r) => r.rss)).toFixed(0)} MB`,
      );
    }
  }
  if (BEFORE) {
    console.log('  after / before (median wall time):');
    for (const f of FORMATS) for (const jobs of [1, 2]) console.log(`    ${f.padEnd(13)} --jobs ${jobs}: ${(med(runs[JSON.stringify([f, jobs, 'after'])]) / med(runs[JSON.stringify([f, jobs, 'before'])])).toFixed(3)}`);
  }
  return files;
}

function memory(files) {
  for (const f of FORMATS) {
    for (const [name, bin] of BUILDS) {
      const r = replay(Array.from({ length: MEMORY }, () => files[f]), 2, 'dicechess-com', bin);
      console.log(`memory: ${name.padEnd(6)} ${f} named ${MEMORY}× (${fmt(GAMES * MEMORY)} games), --jobs 2: ${r.seconds.toFixed(1)} s = ${fmt((GAMES * MEMORY) / r.seconds)} games/s, peak RSS ${r.rss.toFixed(0)} MB (target < 300 MB); load ${noteLoad()}`);
    }
  }
}

function crossover(rounds) {
  const sizes = CROSSOVER.split(',').map(Number);
  const modes = ['1', '2', '2!', 'auto'];
  console.log(`crossover: --jobs 1 against --jobs 2, --jobs 2 --force-jobs (a worker whatever the size) and the default, whole process, median of ${rounds}, alternating; load ${noteLoad()}`);
  for (const f of FORMATS) {
    for (const games of sizes) {
      const file = generate('dicechess-com', games, 'bench-formats', f, join(dir, `formats-${games}.${f}`));
      const runs = alternate(modes, rounds, (jobs) => replay([file], jobs), (jobs) => `${f} ${games} games ${jobsArgs(jobs).join(' ') || '(default)'}`);
      const [m1, m2, mf, ma] = modes.map((k) => med(runs[k]));
      const noteOf = (jobs) => / note: (.*)/.exec(replay([file], jobs, 'dicechess-com', 'bin/dice-dialects.js', false).stderr)?.[1] ?? '';
      const [n2, na] = [noteOf(2), noteOf('auto')];
      console.log(
        `crossover: ${f.padEnd(13)} ${String(games).padStart(6)} games, ${(statSync(file).size / 1e6).toFixed(2)} MB: --jobs 1 ${m1.toFixed(3)} s, ` +
          `--jobs 2 ${m2.toFixed(3)} s (${(m1 / m2).toFixed(2)}×${n2 ? `; ${n2}` : ''}), --force-jobs ${mf.toFixed(3)} s (${(m1 / mf).toFixed(2)}×), ` +
          `default ${ma.toFixed(3)} s (${(m1 / ma).toFixed(2)}×${na ? `; ${na}` : ''}); load ${noteLoad()}`,
      );
    }
  }
}

if (STARTUP_ONLY) startup(ROUNDS);
else if (CHESS_ONLY) await chessControl(ROUNDS);
else if (CROSSOVER) crossover(ROUNDS);
else {
  const files = await formats(ROUNDS);
  if (CHESS > 0) await chessControl(ROUNDS);
  startup(ROUNDS);
  if (MEMORY > 0) memory(files);
}
console.log(`done; ${loadRange()}; now ${load()}`);
rmSync(tmp, { recursive: true, force: true });
