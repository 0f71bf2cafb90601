#!/usr/bin/env node
// A CPU profile's totals (not a test): the time spent in each named function, callees
// included (a function on the stack twice counts once), and the functions with the most
// time of their own. For the profiles `node --cpu-prof` writes (one thread's samples: the
// main thread of a `--jobs 1` replay), e.g.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bin/dice-dialects.js replay FILE --dialect D --jobs 1 --quiet --out DIR
//   node scripts/profile-totals.mjs /tmp/prof/CPU.*.cpuprofile parseStateMapBytes finaliseRecord replayGame update
// Names are those of the bundle (`dist/bundle/cli.cjs`): esbuild may suffix a name that two
// modules share (`turn2`). The profile's total includes the thread's idle time, shown apart.
// Run: node scripts/profile-totals.mjs PROFILE [NAME ...] [--top N]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const [file, ...names] = args;
if (!file) {
  console.error('usage: node scripts/profile-totals.mjs PROFILE [NAME ...] [--top N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
// Each sample's time goes to the node it hit (timeDeltas[i] is the time before sample i).
const self = new Map();
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));

let total = 0;
const within = new Map(names.map((name) => [name, 0]));
const own = new Map();
for (const [id, us] of self) {
  total += us;
  const frame = nodes.get(id).callFrame;
  const where = frame.url ? `${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}` : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  own.set(key, (own.get(key) ?? 0) + us);
  const counted = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = nodes.get(at).callFrame.functionName;
    if (within.has(name) && !counted.has(name)) {
      within.set(name, within.get(name) + us);
      counted.add(name);
    }
  }
}
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled, of which idle ${((own.get('(idle)') ?? 0) / 1000).toFixed(0)} ms`);
if (names.length > 0) {
  console.log('with callees:');
  for (const [name, us] of within) console.log(`${ms(us)}  ${name}`);
}
console.log(`own time, the first ${TOP}:`);
for (const [key, us] of [...own].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${ms(us)}  ${key}`);
