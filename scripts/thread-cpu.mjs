#!/usr/bin/env node
// Where a whole process's CPU time goes by thread (not a test; Linux only): the main thread
// against all others (in a `--jobs 1` replay those are V8's compiler and garbage-collector
// helpers, and libuv's file-reading pool). Method: the command is started directly (no shell)
// and `/proc/<pid>/task/*/stat` is read every 20 ms until it exits; each thread's last
// reading (user + system ticks) counts, so a thread's last 20 ms may be missed. With `--vs`,
// a second command alternates with the first, run by run, and the medians of both are printed.
// `node --no-concurrent-recompilation …` shows how much of the others' time is compiling (the
// compiles then run on the main thread).
// Run: node scripts/thread-cpu.mjs [--runs 3] -- node bin/dice-dialects.js replay FILE --dialect D --jobs 1 --quiet --out DIR [--vs node …]
// (each run needs its own --out: the string {run} in a command is replaced by the run's number.)
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 && runsAt < argv.indexOf('--') ? Number(argv[runsAt + 1]) : 3;
const rest = argv.slice(argv.indexOf('--') + 1);
const vsAt = rest.indexOf('--vs');
const commands = vsAt < 0 ? [rest] : [rest.slice(0, vsAt), rest.slice(vsAt + 1)];
if (argv.indexOf('--') < 0 || commands.some((c) => c.length === 0)) {
  console.error('usage: node scripts/thread-cpu.mjs [--runs N] -- COMMAND … [--vs COMMAND …]');
  process.exit(2);
}
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

/** The user + system ticks of each thread of `pid` now (threads that ended are kept by the caller). */
function threadTicks(pid, into) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'latin1');
      // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      into.set(tid, Number(f[11]) + Number(f[12]));
    } catch {
      // The thread ended between the listing and the read: its last reading stands.
    }
  }
}

function run(command, n) {
  const args = command.map((a) => a.replaceAll('{run}', String(n)));
  return new Promise((resolve, reject) => {
    const child = spawn(args[0], args.slice(1), { stdio: ['ignore', 'ignore', 'inherit'] });
    const ticks = new Map();
    const timer = setInterval(() => threadTicks(child.pid, ticks), 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`${args.join(' ')}: exit ${code}`));
      const main = ticks.get(String(child.pid)) ?? 0;
      let all = 0;
      for (const t of ticks.values()) all += t;
      resolve({ main: main * TICK_MS, others: (all - main) * TICK_MS, threads: ticks.size });
    });
  });
}

const results = commands.map(() => []);
for (let r = 0; r < RUNS; r++) {
  for (let c = 0; c < commands.length; c++) {
    const x = await run(commands[c], r * commands.length + c).catch((e) => {
      console.error(`thread-cpu: ${e.message}`);
      process.exit(1);
    });
    results[c].push(x);
    console.log(`${'AB'[c]} run ${r + 1}: main thread ${x.main.toFixed(0)} ms, the other ${x.threads - 1} threads ${x.others.toFixed(0)} ms; load ${load()}`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let c = 0; c < commands.length; c++) {
  const xs = results[c];
  console.log(`${'AB'[c]} median of ${RUNS}: main thread ${median(xs.map((x) => x.main)).toFixed(0)} ms, others ${median(xs.map((x) => x.others)).toFixed(0)} ms (${commands[c].join(' ')})`);
}
