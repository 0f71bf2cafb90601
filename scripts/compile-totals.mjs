#!/usr/bin/env node
// What a run compiled (not a test): the `completed compiling` lines of a `node --trace-opt` log
// (TurboFan), counted and summed. Each line's "took a, b, c ms" is the job's three phases
// (prepare and finalise on the main thread, execute on a compiler thread); the sum of all three
// is printed, the execute phase apart, the time spent compiling a function again (every compile
// of it after its first, estimated as its mean compile time), and the functions that took longest.
// Run: node --trace-opt bin/dice-dialects.js replay FILE --dialect D --jobs 1 --quiet --out DIR > LOG
//      node scripts/compile-totals.mjs LOG [--top 20]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 20;
if (!args[0]) {
  console.error('usage: node scripts/compile-totals.mjs LOG [--top N]');
  process.exit(2);
}
// A function is told apart by its name and its SharedFunctionInfo (`<JSFunction f (sfi = 0x…)>`;
// an anonymous one has no name), so two functions of one name are not taken for a recompile.
const line = /completed compiling .*?<JSFunction ([^(]*?) ?\(sfi = (\w+)\).*?took ([\d.]+), ([\d.]+), ([\d.]+) ms/;
const perFunction = new Map();
let compiles = 0;
let total = 0;
let execute = 0;
for (const text of readFileSync(args[0], 'utf8').split('\n')) {
  const m = line.exec(text);
  if (!m) continue;
  const ms = Number(m[3]) + Number(m[4]) + Number(m[5]);
  compiles++;
  total += ms;
  execute += Number(m[4]);
  const key = `${m[1] || '(anonymous)'} ${m[2]}`;
  const f = perFunction.get(key) ?? { n: 0, ms: 0 };
  f.n++;
  f.ms += ms;
  perFunction.set(key, f);
}
let again = 0;
for (const f of perFunction.values()) again += (f.ms * (f.n - 1)) / f.n;
const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`${compiles} compiles, ${ms(total)} (execute phase ${ms(execute)}); compiling a function again: about ${ms(again)}`);
for (const [name, f] of [...perFunction].sort((a, b) => b[1].ms - a[1].ms).slice(0, TOP)) {
  console.log(`${ms(f.ms).padStart(9)}  ${String(f.n).padStart(2)}×  ${name}`);
}
