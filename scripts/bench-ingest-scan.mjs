#!/usr/bin/env node
// The ingest-wire fast path against the general path (not a test): in this one process, the
// first 3,000 documents of an ingest-wire NDJSON file decoded both ways in alternating rounds,
// as a worker decodes them: the fast path (the byte scanner, src/records/formats/ingest-wire-scan.ts,
// its turns converted as it reads them) and the general path (JSON.parse of the document's
// text, then the format's conversion), each to the finished record. No judging; the last
// rounds are the warm figures, the first one a fresh thread's.
// Run: npm run build && node scripts/bench-formats.mjs --chess-only (to generate the file), then
//      node scripts/bench-ingest-scan.mjs [corpora/generated/bench/chess-4000.ingest-wire] [rounds=5]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { ingestWireFormat } from '../dist/records/formats/ingest-wire.js';

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
const ctx = { sidecar: null };
const place = (line) => ({ source: file, line, flags: 1, header: null });
const turns = (drafts) => drafts.reduce((n, d) => n + (d.kind === 'record' ? d.record.turns.length : 0), 0);
const cpu = () => process.cpuUsage().user + process.cpuUsage().system;
console.log(`ingest-wire decoding, in process, CPU time: ${docs.length} documents of ${file} (${kB.toFixed(1)} kB each on average)`);
for (let r = 1; r <= rounds; r++) {
  let t = cpu();
  let slow = 0;
  docs.forEach(([a, z], i) => (slow += turns(ingestWireFormat.parse(bytes.toString('latin1', a, z), place(i + 1), ctx))));
  const general = (cpu() - t) / docs.length;
  t = cpu();
  let fast = 0;
  let left = 0;
  docs.forEach(([a, z], i) => {
    const drafts = ingestWireFormat.parseBytes(bytes, a, z, place(i + 1), ctx);
    if (drafts === undefined) left++;
    fast += turns(drafts ?? ingestWireFormat.parse(bytes.toString('latin1', a, z), place(i + 1), ctx));
  });
  const scan = (cpu() - t) / docs.length;
  if (fast !== slow) throw new Error(`the two readings differ: ${fast} turns against ${slow}`);
  console.log(`  round ${r}: general path ${general.toFixed(1)} µs a document, fast path ${scan.toFixed(1)} µs (${(scan / general).toFixed(2)}×; ${left} left to the general path)`);
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
