#!/usr/bin/env node
// The ingest-wire fast path against the general path (not a test): in this one process, the
// first 3,000 documents of an ingest-wire NDJSON file decoded both ways in alternating rounds,
// as a worker decodes them: the fast path (the byte scanner, src/records/formats/ingest-wire-scan.ts,
// its turns converted as it reads them) and the general path (JSON.parse of the document's
// text, then the format's conversion), each to the finished record. No judging; the first
// round is a fresh thread's, the later ones warm. CPU time of the process, µs a document.
// With --before DIR (another build of the tool), that build's fast path alternates with this
// one's in the same rounds instead, and the ratio is printed (the best and the median round).
// Run: npm run build && node scripts/bench-formats.mjs --chess-only (to generate the file), then
//      node scripts/bench-ingest-scan.mjs [corpora/generated/bench/chess-4000.ingest-wire] [--rounds 5] [--before DIR]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const file = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'corpora/generated/bench/chess-4000.ingest-wire';
const rounds = Number(arg('rounds', 5));
const before = arg('before', null);
const formatOf = async (root) => (await import(pathToFileURL(resolve(root, 'dist/records/formats/ingest-wire.js')).href)).ingestWireFormat;
const format = await formatOf('.');
const bytes = readFileSync(file);
const docs = [];
for (let start = 0; docs.length < 3000 && start < bytes.length; ) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) docs.push([start, end]);
  start = end + 1;
}
const kB = docs.reduce((n, [a, z]) => n + z - a, 0) / docs.length / 1024;
const ctx = { sidecar: null };
const place = (line) => ({ source: file, line, flags: 1, header: null });
const turns = (drafts) => drafts.reduce((n, d) => n + (d.kind === 'record' ? d.record.turns.length : 0), 0);
const cpu = () => process.cpuUsage().user + process.cpuUsage().system;
const general = (f) => docs.reduce((n, [a, z], i) => n + turns(f.parse(bytes.toString('latin1', a, z), place(i + 1), ctx)), 0);
const fast = (f) => docs.reduce((n, [a, z], i) => n + turns(f.parseBytes(bytes, a, z, place(i + 1), ctx) ?? f.parse(bytes.toString('latin1', a, z), place(i + 1), ctx)), 0);
/** µs a document of one pass, and its turns (the two sides must read the same). */
const timed = (run) => {
  const t = cpu();
  const n = run();
  return { us: (cpu() - t) / docs.length, n };
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const sides = before ? [['before', () => fast(other)], ['this', () => fast(format)]] : [['general path', () => general(format)], ['fast path', () => fast(format)]];
const other = before ? await formatOf(before) : null;
console.log(`ingest-wire decoding, in process, CPU time: ${docs.length} documents of ${file} (${kB.toFixed(1)} kB each on average); ${sides.map(([n]) => n).join(' against ')}`);
const us = { [sides[0][0]]: [], [sides[1][0]]: [] };
for (let r = 1; r <= rounds; r++) {
  const got = (r % 2 ? sides : [...sides].reverse()).map(([name, run]) => [name, timed(run)]);
  const [[, x], [, y]] = got;
  if (x.n !== y.n) throw new Error(`the two readings differ: ${x.n} turns against ${y.n}`);
  for (const [name, t] of got) us[name].push(t.us);
  const [a, b] = sides.map(([name]) => us[name][r - 1]);
  console.log(`  round ${r}: ${sides[0][0]} ${a.toFixed(1)} µs a document, ${sides[1][0]} ${b.toFixed(1)} µs (${(b / a).toFixed(2)}×)`);
}
const [first, second] = sides.map(([name]) => us[name]);
console.log(`best ${(Math.min(...second) / Math.min(...first)).toFixed(2)}×, median ${(median(second) / median(first)).toFixed(2)}× (${sides[1][0]} ÷ ${sides[0][0]}); load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
