#!/usr/bin/env node
// State-map decoding against native NDJSON, in process, CPU time (not a test). Method: the
// first N documents of the generated state-map file and the same games as native NDJSON
// (`node scripts/bench-formats.mjs` writes both), decoded as a worker decodes them (`parseSpans`:
// the byte scanner, steps → record, `finaliseRecord`; native: `parseNativeLine`), R times; with
// --before DIR (another build of the tool, e.g. main's) the two builds alternate in this one
// process, so the load hits both alike. Prints the first pass (a fresh thread's warm-up), the
// best and the median of the others, in µs a document, and the load average.
// Run: npm run build && node scripts/bench-state-map-decode.mjs [--docs 500] [--rounds 40] [--games 10000] [--before DIR]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const N = Number(arg('docs', 500));
const ROUNDS = Number(arg('rounds', 40));
const GAMES = Number(arg('games', 10000));
const BEFORE = arg('before', null);
const builds = BEFORE ? { before: resolve(BEFORE), after: resolve('.') } : { this: resolve('.') };
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

const mods = {};
for (const [name, root] of Object.entries(builds)) {
  const url = (p) => pathToFileURL(join(root, 'dist', p)).href;
  mods[name] = {
    format: (await import(url('records/formats/dicechess-com/index.js'))).dicechessComFormat,
    parseSpans: (await import(url('records/formats/format.js'))).parseSpans,
    native: (await import(url('records/formats/ndjson.js'))).parseNativeLine,
  };
}

/** The first N lines of a file as one raw item (spans of its bytes), as a batch holds them. */
function item(file) {
  const bytes = readFileSync(file);
  const spans = [];
  for (let start = 0, line = 1; spans.length < 4 * N && start < bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    if (end > start) spans.push(start, end, line, 1);
    start = end + 1;
  }
  return { bytes: bytes.subarray(0, spans[spans.length - 3]), spans: Int32Array.from(spans), header: null };
}
const dir = 'corpora/generated/bench';
const stateMaps = item(join(dir, `formats-${GAMES}.dicechess-com`));
const native = item(join(dir, `formats-${GAMES}.ndjson`));
const docs = stateMaps.spans.length / 4;

const cpu = (fn) => {
  const t = process.cpuUsage();
  fn();
  const c = process.cpuUsage(t);
  return (c.user + c.system) / docs;
};
const runs = {};
for (let r = 0; r < ROUNDS; r++) {
  const names = Object.keys(mods);
  for (const name of r % 2 ? names.reverse() : names) {
    const m = mods[name];
    (runs[`${name} state maps`] ??= []).push(
      cpu(() => {
        for (const d of m.parseSpans(m.format, stateMaps, 'bench.dicechess-com', { sidecar: null })) if (d.kind !== 'record') throw new Error(`not a record: ${d.message}`);
      }),
    );
    (runs[`${name} native`] ??= []).push(
      cpu(() => {
        const { bytes, spans } = native;
        for (let i = 0; i < spans.length; i += 4) m.native(bytes.toString('latin1', spans[i], spans[i + 1]), 'bench.ndjson');
      }),
    );
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`decoding in process, ${docs} documents a pass, ${ROUNDS} passes${BEFORE ? ', builds alternating' : ''}; node ${process.version}`);
for (const [key, xs] of Object.entries(runs)) {
  const rest = xs.slice(1);
  console.log(`  ${key.padEnd(18)} first pass ${xs[0].toFixed(0)} µs a document; then best ${Math.min(...rest).toFixed(1)}, median ${median(rest).toFixed(1)} µs`);
}
for (const name of Object.keys(mods)) {
  const s = runs[`${name} state maps`].slice(1);
  const n = runs[`${name} native`].slice(1);
  console.log(`  ${name ? `${name}: ` : ''}state maps / native: ${(Math.min(...s) / Math.min(...n)).toFixed(2)}× at best, ${(median(s) / median(n)).toFixed(2)}× by medians`);
}
console.log(`load ${load()}`);
