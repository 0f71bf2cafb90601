#!/usr/bin/env node
// The ingest-wire byte scanner against JSON.parse (not a test): in this one process, the first
// 3,000 documents of an ingest-wire NDJSON file, read both ways in alternating rounds (the
// scanner: src/records/formats/ingest-wire-scan.ts; JSON.parse: of the document's text, as the
// general path reads it). Reading only, no conversion and no judging; the last rounds are the
// warm figures, the first one a fresh thread's.
// Run: npm run build && node scripts/bench-formats.mjs --chess 4000 (to generate the files), then
//      node scripts/bench-ingest-scan.mjs [corpora/generated/bench/chess-4000.ingest-wire] [rounds=5]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { scanIngestWire } from '../dist/records/formats/ingest-wire-scan.js';

const file = process.argv[2] ?? 'corpora/generated/bench/chess-4000.ingest-wire';
const rounds = Number(process.argv[3] ?? 5);
const bytes = readFileSync(file);
const docs = [];
for (let start = 0; docs.length < 3000 && start < bytes.length; ) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) docs.push([start, end]);
  start = end + 1;
}
const kB = docs.reduce((n, [a, z]) => n + z - a, 0) / docs.length / 1024;
const perDoc = (t) => ((performance.now() - t) * 1000) / docs.length;
console.log(`ingest-wire reading, in process: ${docs.length} documents of ${file} (${kB.toFixed(1)} kB each on average)`);
for (let r = 1; r <= rounds; r++) {
  let t = performance.now();
  let slow = 0;
  for (const [a, z] of docs) slow += JSON.parse(bytes.toString('latin1', a, z)).turns.length;
  const parse = perDoc(t);
  t = performance.now();
  let fast = 0;
  for (const [a, z] of docs) fast += (scanIngestWire(bytes, a, z) ?? JSON.parse(bytes.toString('latin1', a, z))).turns.length;
  const scan = perDoc(t);
  if (fast !== slow) throw new Error(`the two readings differ: ${fast} turns against ${slow}`);
  console.log(`  round ${r}: JSON.parse ${parse.toFixed(1)} µs a document, scanner ${scan.toFixed(1)} µs (${(scan / parse).toFixed(2)}×)`);
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
