#!/usr/bin/env node
// Reading throughput (records/s) and peak memory of the record readers, on a
// 100k-game NDJSON file and the same games as per-turn CSV.
//
// Method: a handful of realistic games (about 36 turns, with the per-turn FEN,
// clocks and site dice flags a dicechess.com conversion carries) is replicated
// with new ids to 100,000 games, written once with the project's own writers into
// a temporary folder, then each file is read by `readRecords` in a fresh Node
// process (so each peak RSS is that reader's alone). A 10k-game NDJSON run shows
// whether memory grows with the input. Needs `npx tsc -p tsconfig.build.json` first.
//
// Usage: node scripts/bench-records.mjs [--games 100000] [--keep]
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { finished } from 'node:stream/promises';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'records', 'index.js'))) {
  console.error('bench-records: build first: npx tsc -p tsconfig.build.json');
  process.exit(2);
}
const { readRecords, recordsIn, writeRecords, GameRecord } = await import(path.join(dist, 'records', 'index.js'));
const core = await import(path.join(dist, 'core', 'index.js'));
const { makePrng } = await import(path.join(dist, 'dice', 'index.js'));

// Child mode: read one file, report count, time and peak RSS.
if (process.argv[2] === '--child') {
  const [, , , format, file, mode] = process.argv;
  const started = process.hrtime.bigint();
  let read = 0;
  let bad = 0;
  if (mode === 'json') {
    // The ceiling: nothing but cutting lines and JSON.parse, no reader around it.
    let rest = Buffer.alloc(0);
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
      const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, start)) {
        JSON.parse(buf.latin1Slice(start, nl));
        read++;
        start = nl + 1;
      }
      rest = buf.subarray(start);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    process.stdout.write(JSON.stringify({ read, bad, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
    process.exit(0);
  }
  // `deferred`: the replayer's reading thread, which cuts native lines and leaves parsing to its workers.
  for await (const item of readRecords([file], { format, deferRaw: mode === 'deferred' })) {
    if (item.kind === 'record') read++;
    else if (item.kind === 'raw') read += recordsIn(item);
    else bad++;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ read, bad, seconds, peakRssMb }));
  process.exit(0);
}

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? dflt : process.argv[i + 1];
};
const GAMES = Number(arg('--games', 100_000));
const keep = process.argv.includes('--keep');

/** A seeded PRNG (the project's own) so every run benchmarks the same corpus. */
function prng(seed) {
  const p = makePrng(seed);
  return () => p.next();
}

/** A game shaped like a converted dicechess.com record; moves are notation-valid pawn pushes and piece hops, no rules. */
function baseGame(seed) {
  const rnd = prng(seed);
  const pos = core.parseDfen(core.STANDARD_FEN).value.pos;
  const turns = [];
  let clocks = { w: 180_000, b: 180_000 };
  for (let t = 0; t < 36; t++) {
    const side = pos.turn === 0 ? 'w' : 'b';
    const sign = side === 'w' ? 1 : -1;
    const moves = [];
    const dice = [];
    const wanted = rnd() < 0.12 ? 0 : 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < wanted * 4 && moves.length < wanted; k++) {
      const from = Math.floor(rnd() * 64);
      const piece = pos.board[from] * sign;
      if (piece <= 0 || piece === 6) continue;
      const to = piece === 1 ? from + 8 * sign : Math.floor(rnd() * 64);
      if (to < 8 || to >= 56 || pos.board[to] * sign > 0 || (piece === 1 && pos.board[to] !== 0)) continue;
      const uci = core.squareName(from) + core.squareName(to);
      const m = core.uciToMove(pos, uci);
      if (!m.ok) continue;
      pos.make(m.value);
      moves.push(uci);
      dice.push(piece);
    }
    while (dice.length < 3) dice.push(1 + Math.floor(rnd() * 6));
    pos.endTurn();
    clocks = { ...clocks, [side]: clocks[side] - Math.floor(rnd() * 6000) };
    turns.push({
      side,
      dice,
      diceOrder: 'roll',
      moves,
      fenAfter: core.makeDfen(pos),
      clockMs: { ...clocks },
      diceFlags: dice.map((_, i) => ({ allowed: i < moves.length, used: i < moves.length })),
      location: `games/${seed}.json#step ${t * 7 + 1}`,
    });
  }
  return GameRecord.parse({
    id: `base-${seed}`,
    site: 'dicechess.com',
    format: 'dicechess-com',
    mode: 'classic',
    startFen: core.STANDARD_FEN,
    startedAt: '2025-07-30T21:05:00.000Z',
    players: { white: { id: '482', kind: 'human', rating: 1510 }, black: { id: '-43', kind: 'bot', rating: 1480 } },
    timeControl: { kind: 'sudden-death', initialMs: 180_000, incrementMs: 0 },
    stakes: { initial: 10, final: 10, currency: 'GOLD' },
    turns,
    result: seed % 3 === 0 ? 'draw' : seed % 3 === 1 ? 'white' : 'black',
    termination: seed % 3 === 0 ? 'draw_agreement' : 'resign',
    notes: ['dice:letters', 'squares:upper-case'],
  });
}

const bases = Array.from({ length: 8 }, (_, i) => baseGame(i + 1));
// The same games as a turn-list source gives them (ingest wire without FENs, opening books): dice and moves only.
const leanBases = bases.map((b) => ({ ...b, format: 'ingest-wire', turns: b.turns.map((t) => ({ ...t, fenAfter: null, clockMs: null, diceFlags: null, location: null })) }));
function* corpus(n, from = bases) {
  for (let i = 0; i < n; i++) {
    const b = from[i % from.length];
    yield { ...b, id: `game-${String(i).padStart(6, '0')}` };
  }
}

const dir = path.join(tmpdir(), 'dice-dialects-bench-records');
mkdirSync(dir, { recursive: true });
async function write(format, n, file, from = bases) {
  const out = createWriteStream(file);
  await writeRecords(format, corpus(n, from), out);
  out.end();
  await finished(out);
  return file;
}

const files = {
  ndjson: await write('ndjson', GAMES, path.join(dir, `games-${GAMES}.ndjson`)),
  csv: await write('csv', GAMES, path.join(dir, `games-${GAMES}.csv`)),
  lean: await write('ndjson', GAMES, path.join(dir, `games-${GAMES}-lean.ndjson`), leanBases),
  small: await write('ndjson', Math.round(GAMES / 10), path.join(dir, `games-${Math.round(GAMES / 10)}.ndjson`)),
};

function measure(format, file, mode = 'parsed') {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', format, file, mode], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const rows = [
  ['NDJSON, rich records', 'ndjson', files.ndjson],
  ['NDJSON, lean records', 'ndjson', files.lean],
  ['CSV (one row per turn)', 'csv', files.csv],
  [`NDJSON, ${Math.round(GAMES / 10)} games`, 'ndjson', files.small],
  ['NDJSON rich, lines only', 'ndjson', files.ndjson, 'deferred'],
  ['rich: bare JSON.parse', 'ndjson', files.ndjson, 'json'],
  ['lean: bare JSON.parse', 'ndjson', files.lean, 'json'],
];
const mb = (f) => (statSync(f).size / 1024 ** 2).toFixed(1);
console.log(`records benchmark: node ${process.version}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (before)`);
console.log(`corpus: ${GAMES} games of ${bases[0].turns.length} turns (8 base games with new ids), in ${dir}`);
console.log('rich = as converted from dicechess.com (FEN, clocks, site dice flags and step per turn); lean = dice and moves per turn');
console.log("lines only = the replayer's reading thread with workers: native lines cut as bytes, parsed later in the workers");
console.log('bare JSON.parse = the ceiling for any reader on one thread: the same lines cut and parsed, nothing else');
for (const [label, format, file, mode] of rows) {
  const r = measure(format, file, mode);
  const rate = Math.round(r.read / r.seconds);
  const rowRate = format === 'csv' ? `, ${Math.round((r.read * bases[0].turns.length) / r.seconds)} rows/s` : '';
  console.log(
    `${label.padEnd(24)} ${String(r.read).padStart(7)} read ${String(r.bad).padStart(3)} unreadable  ${mb(file).padStart(7)} MB  ${r.seconds.toFixed(2).padStart(6)} s  ${String(rate).padStart(7)} records/s${rowRate}  ${(statSync(file).size / 1024 ** 2 / r.seconds).toFixed(0)} MB/s  peak RSS ${r.peakRssMb.toFixed(0)} MB`,
  );
}
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (after); target: >= 50,000 games/s for NDJSON`);
if (!keep) rmSync(dir, { recursive: true, force: true });
