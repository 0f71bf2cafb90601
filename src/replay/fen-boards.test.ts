import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadDialect, packageRoot } from '../dialects/index.js';
import { prng } from '../records/test-support/random-game.js';
import { fenBoardsOf } from '../records/model/fen-boards.js';
import { FORMATS } from '../records/formats/index.js';
import type { FormatName, GameRecord } from '../records/model/game-record.js';
import { prepareDialect, replayGame } from './replay-game.js';

const root = packageRoot();
const lines = (file: string): string[] =>
  gunzipSync(readFileSync(join(root, 'corpora/samples', file)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');

/** A piece letter, a digit or a slash of the board field changed: most give another board (a mismatch), some no board at all. */
function spoil(fen: string, rnd: () => number): string {
  const board = fen.indexOf(' ');
  const i = Math.floor(rnd() * board);
  const swaps = 'pnbrqkPNBRQK12345678/';
  return fen.slice(0, i) + swaps[Math.floor(rnd() * swaps.length)] + fen.slice(i + 1);
}

/** Each document with some turns' recorded boards spoiled (about one game in three). */
function spoiled(docs: string[], key: 'fen_after' | 'fenAfter', seed: number): string[] {
  const rnd = prng(seed);
  return docs.map((text) => {
    if (rnd() < 0.66) return text;
    const doc = JSON.parse(text) as { turns: Record<string, unknown>[] };
    for (const t of doc.turns) if (typeof t[key] === 'string' && rnd() < 0.2) t[key] = spoil(t[key] as string, rnd);
    return JSON.stringify(doc);
  });
}

/** Each document's records, decoded one at a time just before `judge` runs on them, as a worker does (the boards live in a reused arena). */
function judgeEach(format: FormatName, docs: string[], judge: (record: GameRecord) => void): number {
  let records = 0;
  docs.forEach((text, i) => {
    for (const d of FORMATS[format].parse!(text, { source: 'sample', line: i + 1, flags: 0, header: null }, { sidecar: null })) {
      if (d.kind !== 'record') continue;
      records++;
      judge(d.record);
    }
  });
  return records;
}

const dialects = ['reference', 'dicechess-com', 'chess'].map((name) => {
  const loaded = loadDialect(name);
  if (!loaded.ok) throw new Error(name);
  return prepareDialect(name, loaded.value.rules);
});

describe('the boards a reader writes down (FenBoards) judge as the recorded text does', () => {
  const cases: [string, FormatName, string[]][] = [
    ['reference ingest-wire', 'ingest-wire', spoiled(lines('reference/games.ingest-wire.ndjson.gz'), 'fen_after', 1)],
    ['dicechess.com ingest-wire', 'ingest-wire', spoiled(lines('dicechess-com/games.ingest-wire.ndjson.gz'), 'fen_after', 2)],
    ['reference history', 'history', spoiled(lines('reference/games.history.ndjson.gz'), 'fenAfter', 3)],
  ];
  for (const [name, format, docs] of cases) {
    it(`${name}: every finding the same with and without them, fen-after mismatches included`, () => {
      let read = 0;
      let fens = 0;
      let mismatches = 0;
      const records = judgeEach(format, docs, (record) => {
        const boards = fenBoardsOf(record);
        if (boards) read++;
        record.turns.forEach((t, i) => {
          if (t.fenAfter !== null) fens++;
          if (t.fenAfter !== null && boards?.matches(i, t.fenAfter, new Int32Array(16)) !== undefined) read++;
        });
        // A copy of the record has no boards beside it: its judge reads every FEN's text.
        const copy = { ...record };
        expect(fenBoardsOf(copy)).toBeUndefined();
        for (const d of dialects) {
          const a = replayGame(record, d, 0, { continueAfterDivergence: true });
          expect(a).toEqual(replayGame(copy, d, 0, { continueAfterDivergence: true }));
          mismatches += a.findings.filter((f) => f.rule === 'record.fen-after-mismatch').length;
        }
      });
      expect(records).toBeGreaterThan(20);
      // Every record has them, and so has nearly every turn (a spoiled FEN the fast check is unsure of has none).
      expect(read).toBeGreaterThan(records + 0.9 * fens);
      expect(mismatches).toBeGreaterThan(10);
    });
  }
});
