#!/usr/bin/env node
// A fresh thread's warm-up (not a test): decodes the first 2,000 state maps of a dicechess-com
// NDJSON file in this one process, 100 at a time, and prints the time per document of each
// hundred: the first hundreds run before the compiler has optimised the decoder, which is the
// fixed cost every worker thread pays on its own. In process, decoding only (no judging).
// Run: npm run build && node scripts/bench-formats.mjs --formats dicechess-com (to generate the file), then
//      node scripts/bench-warmup.mjs [corpora/generated/bench/formats-10000.dicechess-com]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dicechessComFormat } from '../dist/records/formats/dicechess-com/index.js';

const file = process.argv[2] ?? 'corpora/generated/bench/formats-10000.dicechess-com';
// As a worker gets them: each document its own string, decoded from bytes.
const bytes = readFileSync(file);
const docs = [];
for (let start = 0; docs.length < 2000 && start < bytes.length; ) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) docs.push(bytes.toString('latin1', start, end));
  start = end + 1;
}
const ctx = { history: null };
const perHundred = [];
for (let b = 0; b < docs.length; b += 100) {
  const t = performance.now();
  for (let i = b; i < Math.min(b + 100, docs.length); i++) dicechessComFormat.decode(docs[i], { source: file, line: i + 1, flags: 1, header: null }, ctx);
  perHundred.push(Math.round(((performance.now() - t) * 1000) / Math.min(100, docs.length - b)));
}
const steady = [...perHundred.slice(-10)].sort((a, b) => a - b)[5];
console.log(`state-map decoding, in process, µs a document per hundred (${docs.length} documents of ${file}): ${perHundred.join(' ')}`);
console.log(`first 400: ${Math.round(perHundred.slice(0, 4).reduce((a, b) => a + b, 0) / 4)} µs a document; steady (median of the last 1,000): ${steady} µs; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
