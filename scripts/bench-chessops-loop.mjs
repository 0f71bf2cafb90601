#!/usr/bin/env node
// The plain chessops loop of bench-formats.mjs (a dev dependency, benchmarks only): reads
// and parses an ingest-wire NDJSON file in one process and plays every game from
// Chess.default() with isLegal and play per move. Prints games and illegal games.
// Run: node scripts/bench-chessops-loop.mjs FILE
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Chess } from 'chessops/chess';
import { parseUci } from 'chessops/util';

let games = 0;
let illegal = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const doc = JSON.parse(line);
  const pos = Chess.default();
  games++;
  turns: for (const t of doc.turns) {
    for (const uci of t.moves) {
      const m = parseUci(uci);
      if (!m || !pos.isLegal(m)) {
        illegal++;
        break turns;
      }
      pos.play(m);
    }
  }
}
console.log(`${games} games, ${illegal} illegal`);
