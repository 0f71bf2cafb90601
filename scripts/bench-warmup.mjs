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
import { parseSpans } from '../dist/records/formats/format.js';

const file = process.argv[2] ?? 'corpora/generated/bench/formats-10000.dicechess-com';
// As a worker gets them: documents as spans of their bytes, decoded by parseSpans (the fast
// path reads the bytes, anything else their text), 100 to a raw item.
const bytes = readFileSync(file);
const spans = [];
for (let start = 0, line = 1; spans.length < 4 * 2000 && start < bytes.length; line++) {
  let end = bytes.indexOf(10, start);
  if (end < 0) end = bytes.length;
  if (end > start) spans.push(start, end, line, 1);
  start = end + 1;
}
const docs = spans.length / 4;
const ctx = { sidecar: null };
const perHundred = [];
for (let b = 0; b < docs; b += 100) {
  const n = Math.min(100, docs - b);
  // The hundred's own bytes, as a batch holds them (parseSpans checks the whole item for ASCII).
  const from = spans[4 * b];
  const to = spans[4 * (b + n - 1) + 1];
  const own = Int32Array.from(spans.slice(4 * b, 4 * (b + n)), (v, k) => (k % 4 < 2 ? v - from : v));
  const item = { bytes: bytes.subarray(from, to), spans: own, header: null };
  const t = performance.now();
  for (const d of parseSpans(dicechessComFormat, item, file, ctx)) if (d.kind !== 'record') throw new Error(`not a record: ${d.message}`);
  perHundred.push(Math.round(((performance.now() - t) * 1000) / n));
}
const steady = [...perHundred.slice(-10)].sort((a, b) => a - b)[5];
console.log(`state-map decoding, in process, µs a document per hundred (${docs} documents of ${file}): ${perHundred.join(' ')}`);
console.log(`first 400: ${Math.round(perHundred.slice(0, 4).reduce((a, b) => a + b, 0) / 4)} µs a document; steady (median of the last 1,000): ${steady} µs; load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
