import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordProblem } from '../problems.js';
import { FenBoards } from '../model/fen-boards.js';
import { checkFen, checkFenByFields } from './fen.js';
import { plainFenEnd } from './fen-shape.js';
import { prng } from '../test-support/random-game.js';
import { chess960Fen, legalMoves, makeDfen, parseDfen, type Position, STANDARD_FEN } from '../../core/index.js';

/** A turn's FEN checked by the entry point, and by the reference it is held equal to. */
const turnFen = (text: unknown, what: string): string => checkFen(text, 'turn', what);
const turnFenByFields = (text: unknown, what: string): string => checkFenByFields(text, 'turn', what);

/** What a FEN check gives: the FEN it returns, or the unreadable entry's code and sentence. */
function outcome(check: (text: unknown, what: string) => string, text: unknown): unknown {
  try {
    return { fen: check(text, 'field "fen_after"') };
  } catch (e) {
    if (e instanceof RecordProblem) return { code: e.problem.code, message: e.problem.message, location: e.problem.location };
    throw e;
  }
}

/** Positions of random legal games (checks, captures, castling, en passant targets, promotions), as FENs. */
function playedFens(games: number): string[] {
  const out: string[] = [];
  for (let g = 0; g < games; g++) {
    const rnd = prng(1000 + g);
    const start = g % 4 === 3 ? (chess960Fen(Math.floor(rnd() * 960)) as { ok: true; value: string }).value : STANDARD_FEN;
    const pos = (parseDfen(start) as { ok: true; value: { pos: Position } }).value.pos;
    for (let ply = 0; ply < 120; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      pos.make(moves[Math.floor(rnd() * moves.length)]);
      pos.endTurn();
      out.push(makeDfen(pos, ply % 5 === 0 ? [1, 3] : undefined, { castling: g % 4 === 3 ? 'shredder' : 'xfen', short: ply % 7 === 0 }));
    }
  }
  return out;
}

const PLAYED = playedFens(24);
const ALPHABET = [...' /12345678 09pnbrqkPNBRQKwbx-KQkqAHah36\t\u00e9'];

/** A played FEN with a few character edits: the FENs worth checking lie next to good ones. */
const nearFen = fc
  .tuple(
    fc.constantFrom(...PLAYED),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(fc.constantFrom(...ALPHABET), { maxLength: 3 })), { maxLength: 3 }),
  )
  .map(([fen, edits]) => {
    let text = fen;
    for (const [at, del, ins] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + ins.join('') + text.slice(i + del);
    }
    return text;
  });

/** Boards good and bad by one rule each: pawns on last ranks (kings taken or not), two kings, too few or many squares. */
const BOARDS = [
  STANDARD_FEN.split(' ')[0],
  '4k3/8/8/8/8/8/8/4K3',
  '4k2P/8/8/8/8/8/8/7K',
  'P7/8/8/8/8/8/8/7K',
  'p3k3/8/8/8/8/8/8/4K3',
  '4k3/8/8/8/8/8/8/P3K3',
  '4k3/8/8/8/8/8/8/p6K',
  '4k3/8/8/8/8/8/8/p7',
  'kk6/8/8/8/8/8/8/4K3',
  '4k3/8/8/8/8/8/8/KK6',
  '4k3/8/8/8/8/8/8/4K2',
  '4k3/8/8/8/8/8/8/4K4',
  '4k3/8/8/8/8/8/8/8/4K3',
  '4k3/8/8/8/8/8/4K3',
];

/** FENs put together field by field from near-valid parts (wrong counts, odd fields, extra spaces). */
const rank = fc.array(fc.constantFrom('1', '2', '3', '4', '7', '8', 'p', 'P', 'k', 'K', 'q', 'N', 'x', '0', '9'), { minLength: 1, maxLength: 9 }).map((xs) => xs.join(''));
const FIELDS = [
  BOARDS,
  ['w', 'b', 'W', '', 'wb'],
  ['-', 'KQkq', 'Kk', 'HAha', 'KQkqKQkqK', 'KQkqKQkq', 'x', '', '--'],
  ['-', 'e3', 'd6', 'e3d6', 'e4', 'e', 'i3', '', '-e3'],
  ['0', '12', '00', 'x', '', '-1'],
  ['1', '0', '00', '10', 'a', ''],
  ['-', 'PN', 'pnbrqk', 'PNBRQKP', 'x', '', '--'],
];
const builtFen = fc
  .tuple(
    fc.oneof(fc.array(rank, { minLength: 7, maxLength: 9 }).map((rs) => rs.join('/')), fc.constantFrom(...BOARDS)),
    ...(FIELDS.slice(1).map((options) => fc.constantFrom(...options)) as [fc.Arbitrary<string>, fc.Arbitrary<string>, fc.Arbitrary<string>, fc.Arbitrary<string>, fc.Arbitrary<string>, fc.Arbitrary<string>]),
    fc.nat({ max: 3 }),
    fc.constantFrom(' ', ' ', ' ', ' ', ' ', '  ', '\t'),
    fc.constantFrom('', '', ' ', '\n'),
  )
  .map(([board, side, castling, ep, half, full, dice, cut, gap, around]) => {
    const fields = [board, side, castling, ep, half, full, dice].slice(0, 4 + cut);
    return around + fields.join(gap) + around;
  });

describe('the one-pass per-turn FEN check (plainFenEnd) against the field-by-field one', () => {
  it('accepts every played position and returns the same FEN', () => {
    for (const fen of PLAYED) {
      const end = plainFenEnd(fen);
      expect(end, fen).toBeGreaterThan(0);
      expect(outcome(turnFen, fen)).toEqual(outcome(turnFenByFields, fen));
    }
  });

  it('accepts every per-turn FEN of the committed fixtures the field-by-field check accepts, with the same answer', () => {
    const dir = path.join(import.meta.dirname, '..', 'fixtures');
    const fens = new Set<string>();
    for (const sub of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(json|ndjson|csv)$/.test(sub)) continue;
      for (const m of readFileSync(path.join(dir, sub), 'utf8').matchAll(/"(?:fen_after|fenAfter|fen)"\s*:\s*"([^"]*)"/g)) fens.add(m[1]);
    }
    expect(fens.size).toBeGreaterThan(10);
    for (const fen of fens) expect(outcome(turnFen, fen), fen).toEqual(outcome(turnFenByFields, fen));
  });

  it('gives what the field-by-field check gives for every value of each field, the others good, 4 to 7 fields', () => {
    const good = ['4k3/8/8/8/8/8/8/4K3', 'w', 'KQkq', 'e3', '0', '1', 'PN'];
    let cases = 0;
    for (let f = 0; f < FIELDS.length; f++) {
      for (const value of FIELDS[f]) {
        const fields = good.map((g, i) => (i === f ? value : g));
        for (let n = Math.max(4, f + 1); n <= 7; n++) {
          const text = fields.slice(0, n).join(' ');
          expect(outcome(turnFen, text), text).toEqual(outcome(turnFenByFields, text));
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(100);
  });

  it('gives what the field-by-field check gives for FENs near played ones', () => {
    fc.assert(
      fc.property(nearFen, (text) => {
        expect(outcome(turnFen, text)).toEqual(outcome(turnFenByFields, text));
        const end = plainFenEnd(text);
        if (end >= 0) expect(checkFenByFields(text, 'turn', 'x')).toBe(text.slice(0, end));
      }),
      { numRuns: 4000 },
    );
  });

  it('gives what the field-by-field check gives for FENs built from odd fields', () => {
    fc.assert(
      fc.property(builtFen, (text) => {
        expect(outcome(turnFen, text)).toEqual(outcome(turnFenByFields, text));
      }),
      { numRuns: 4000 },
    );
  });

  it('gives what the field-by-field check gives for any text and any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.anything()), (v) => {
        expect(outcome(turnFen, v)).toEqual(outcome(turnFenByFields, v));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves the cases it is unsure of (a pawn on a last rank, tabs, doubled spaces) to the field-by-field check', () => {
    for (const fen of ['4k2P/8/8/8/8/8/8/7K w - - 0 1', `${STANDARD_FEN} `, STANDARD_FEN.replace(' ', '  '), STANDARD_FEN.replace(' ', '\t')]) {
      expect(plainFenEnd(fen)).toBe(-1);
      expect(outcome(turnFen, fen)).toEqual(outcome(turnFenByFields, fen));
    }
    expect(checkFen(`${STANDARD_FEN} PN`, 'turn', 'x')).toBe(STANDARD_FEN);
  });
});

/** The board field square by square (a1 first, the core's board values), by the simplest reading. */
function boardOf(fen: string): number[] {
  const board = new Array<number>(64).fill(0);
  fen
    .split(' ')[0]
    .split('/')
    .forEach((rank, r) => {
      let file = 0;
      for (const ch of rank) {
        if (ch >= '1' && ch <= '8') file += Number(ch);
        else board[(7 - r) * 8 + file++] = ('pnbrqk'.indexOf(ch.toLowerCase()) + 1) * (ch === ch.toLowerCase() ? -1 : 1);
      }
    });
  return board;
}

describe('the boards the per-turn check writes down (FenBoards)', () => {
  it('holds every played position square by square, beside the FEN it returned', () => {
    const boards = new FenBoards(PLAYED.length);
    PLAYED.forEach((fen, t) => {
      const returned = checkFen(fen, 'turn', () => 'x', boards, t);
      expect(boards.fens[t]).toBe(returned);
      expect([...boards.squares.subarray(boards.board(t), boards.board(t) + 64)], fen).toEqual(boardOf(fen));
    });
  });

  it('writes a board only where the check is sure, and never outside its own 64 squares, for FENs near played ones', () => {
    fc.assert(
      fc.property(nearFen, (text) => {
        const boards = new FenBoards(3);
        const [a, b, c] = [0, 1, 2].map((t) => boards.board(t));
        boards.squares.fill(99, a, a + 64);
        boards.squares.fill(99, c, c + 64);
        let returned: string | null = null;
        try {
          returned = checkFen(text, 'turn', () => 'x', boards, 1);
        } catch (e) {
          if (!(e instanceof RecordProblem)) throw e;
        }
        expect(boards.squares.subarray(a, a + 64).every((v) => v === 99)).toBe(true);
        expect(boards.squares.subarray(c, c + 64).every((v) => v === 99)).toBe(true);
        if (boards.fens[1] !== null) {
          expect(boards.fens[1]).toBe(returned);
          expect([...boards.squares.subarray(b, b + 64)]).toEqual(boardOf(text));
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('gives a record whose range the arena handed out again no boards: the judge reads the text', () => {
    const fen = PLAYED[0];
    const first = new FenBoards(1);
    checkFen(fen, 'turn', () => 'x', first, 0);
    const words = new Int32Array(new Int8Array(Int8Array.from(boardOf(fen))).buffer);
    expect(first.matches(0, fen, words)).toBe(true);
    // Later records take the arena's ranges until it comes round again (1 MiB: 17 records of 1,000 turns).
    for (let i = 0; i < 17; i++) new FenBoards(1000);
    expect(first.matches(0, fen, words)).toBeUndefined();
  });
});

describe('a start position against a turn\'s position', () => {
  it('matches castling rights to rooks for a start only, and names the field in the sentence', () => {
    const noRook = '4k3/8/8/8/8/8/8/4K3 w K - 0 1';
    expect(checkFen(noRook, 'turn', 'x')).toBe(noRook);
    expect(() => checkFen(noRook, 'start', 'field "initial_fen"')).toThrow(/^field "initial_fen" "4k3\/8\/8\/8\/8\/8\/8\/4K3 w K - 0 1" is not a FEN: /);
    expect(checkFen(`  ${STANDARD_FEN} PNB `, 'start', 'x')).toBe(STANDARD_FEN);
  });

  it('says a missing FEN is missing, whichever kind', () => {
    for (const kind of ['start', 'turn'] as const) {
      try {
        checkFen('  ', kind, () => 'field "fen"');
        expect.unreachable();
      } catch (e) {
        expect((e as RecordProblem).problem).toEqual({ code: 'record.missing-field', message: 'field "fen" is missing' });
      }
    }
  });
});
