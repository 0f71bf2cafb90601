#!/usr/bin/env node
// The FEN board check alone (not a test): in this one process, every `fen_after` board of an
// ingest-wire NDJSON file checked by `fenBoardEnd` (src/records/formats/fen-bytes.ts) straight
// from the file's bytes, ns a board per round; beside it the same boards with the ranks they
// share with the turn before copied (its `same` argument, as the state maps' scanner uses it),
// and a bare loop over the same bytes that only sums a table (the floor of a byte loop). No
// decoding around it: in process, one function.
// Run: npm run build && node scripts/bench-formats.mjs --chess-only (to generate the file), then
//      node scripts/bench-fen-board.mjs [corpora/generated/bench/chess-4000.ingest-wire] [--rounds 6]
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { bind8, sameBytes8 } from '../dist/records/formats/eight-bytes.js';
import { fenBoardEnd } from '../dist/records/formats/fen-bytes.js';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 6;
const file = args[0] ?? 'corpora/generated/bench/chess-4000.ingest-wire';
const b = readFileSync(file);
const key = Buffer.from('"fen_after":"');
const starts = [];
for (let i = b.indexOf(key); i >= 0; i = b.indexOf(key, i + 1)) starts.push(i + key.length);
const at = Int32Array.from(starts);
const squares = new Int8Array(64 * 1024);
bind8(b);

// The floor: a byte table summed up to the board's end, nothing written, nothing checked.
const PART = new Uint16Array(256).fill(16);
for (let d = 1; d <= 8; d++) PART[48 + d] = d;
for (const c of 'pnbrqkPNBRQK') PART[c.charCodeAt(0)] = 1;
PART[47] = 256;
PART[32] = 512;
function floor(a) {
  let s = 0;
  for (let i = a; ; i++) {
    const k = PART[b[i]];
    if (k === 512) return s + i;
    s += k;
  }
}

const perBoard = (t) => (((performance.now() - t) * 1e6) / at.length).toFixed(0);
console.log(`${at.length} boards of ${file}; ns a board per round`);
for (let r = 1; r <= ROUNDS; r++) {
  let t = performance.now();
  let slot = 0;
  let failed = 0;
  for (let k = 0; k < at.length; k++) {
    if (fenBoardEnd(b, at[k], b.length, squares, slot) < 0) failed++;
    slot = (slot + 64) & 0xffff;
  }
  const whole = perBoard(t);
  // The turn before is at most a few hundred bytes back (the same game); its first bytes that repeat are not read again.
  t = performance.now();
  slot = 0;
  for (let k = 0, prevSlot = 0; k < at.length; k++) {
    const same = k > 0 && at[k] - at[k - 1] < 400 ? sameBytes8(b, at[k], at[k - 1], 90) : 0;
    if ((same > 0 ? fenBoardEnd(b, at[k], b.length, squares, slot, prevSlot, same) : fenBoardEnd(b, at[k], b.length, squares, slot)) < 0) failed++;
    prevSlot = slot;
    slot = (slot + 64) & 0xffff;
  }
  const shared = perBoard(t);
  t = performance.now();
  let sum = 0;
  for (let k = 0; k < at.length; k++) sum += floor(at[k]);
  const bare = perBoard(t);
  console.log(`round ${r}: whole boards ${whole}, shared ranks copied ${shared}, bare byte loop ${bare}${failed > 0 ? `; ${failed} refused` : ''} (${sum & 1})`);
}
console.log(`load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
