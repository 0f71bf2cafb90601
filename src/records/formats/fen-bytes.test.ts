import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainFenEnd, plainFenFieldsEnd } from '../notation/fen-shape.js';
import { randomGame } from '../test-support/random-game.js';
import { makeRecordText } from '../write.js';
import { fenBoardEnd, fenFieldsEnd, fenKept } from './fen-bytes.js';

/** A FEN as the scanner meets it: a JSON string among other bytes (the document goes on after it). */
function asBytes(fen: string): { b: Buffer; a: number; end: number } {
  const b = Buffer.from(`{"fen":"${fen}","dices":[]}`, 'latin1');
  return { b, a: 8, end: b.length };
}

/** The byte check's answer in the text functions' terms: the kept length, or -1; and the squares it wrote. */
function byBytes(fen: string): { kept: number; squares: number[] | null } {
  const { b, a, end } = asBytes(fen);
  // Squares at the start of a buffer of their own (cleared a word at a time), and at an odd offset (a square at a time): the same answer.
  const answers = [new Int8Array(64), new Int8Array(new ArrayBuffer(65), 1)].map((squares) => {
    squares.fill(99);
    const space = fenBoardEnd(b, a, end, squares, 0);
    const q = space < 0 ? -1 : fenFieldsEnd(b, a, space, end);
    return q < 0 ? { kept: -1, squares: null } : { kept: fenKept, squares: Array.from(squares) };
  });
  expect(answers[1]).toEqual(answers[0]);
  return answers[0];
}

function byText(fen: string): { kept: number; squares: number[] | null } {
  const squares = new Int8Array(64);
  const kept = plainFenEnd(fen, squares, 0);
  return kept < 0 ? { kept: -1, squares: null } : { kept, squares: Array.from(squares) };
}

/** The FENs of some generated state maps (every step's). */
const played = [
  ...new Set(
    Array.from({ length: 30 }, (_, seed) => makeRecordText('dicechess-com', randomGame(seed + 1, { chess960: seed % 4 === 0 })))
      .join('')
      .match(/"fen":"[^"]*"/g)!
      .map((m) => m.slice(7, -1)),
  ),
];

// The characters FENs are made of, and a few they are not (no quote or backslash: the JSON string would end or escape there).
const FEN_CHARS = 'pnbrqkPNBRQK12345678/ wb-KQkqa-h036 9xX\t\u00e9';

describe('the byte FEN check gives what plainFenEnd gives', () => {
  it('for every FEN of generated games, with the same squares', () => {
    expect(played.length).toBeGreaterThan(300);
    for (const fen of played) {
      expect(byText(fen).kept, fen).toBeGreaterThan(0);
      expect(byBytes(fen), fen).toEqual(byText(fen));
    }
  });

  it('for those FENs edited at random (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...played),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: fc.constantFrom(...FEN_CHARS), maxLength: 4 })), { minLength: 1, maxLength: 3 }),
        (fen, edits) => {
          let text = fen;
          for (const [i, del, ins] of edits) {
            const k = i % (text.length + 1);
            text = text.slice(0, k) + ins + text.slice(k + del);
          }
          expect(byBytes(text)).toEqual(byText(text));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('past a board that passed: the fields as plainFenFieldsEnd checks them', () => {
    fc.assert(
      fc.property(fc.constantFrom(...played), fc.string({ unit: fc.constantFrom(...FEN_CHARS), maxLength: 24 }), (fen, tail) => {
        const board = fen.slice(0, fen.indexOf(' '));
        const text = `${board} ${tail}`;
        const { b, a, end } = asBytes(text);
        const q = fenFieldsEnd(b, a, a + board.length, end);
        expect(q < 0 ? -1 : fenKept).toBe(plainFenFieldsEnd(text, board.length));
      }),
      { numRuns: 3000 },
    );
  });

  it('read again only from the first rank that may differ from the last board that passed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...played),
        fc.constantFrom(...played),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.string({ unit: fc.constantFrom(...FEN_CHARS), maxLength: 4 })), { maxLength: 2 }),
        fc.boolean(),
        (before, other, edits, ownBuffer) => {
          // The next FEN: another played one, or this one edited (a move changes a rank or two).
          let text = edits.length === 0 ? other : before;
          for (const [i, del, ins] of edits) {
            const k = i % (text.length + 1);
            text = text.slice(0, k) + ins + text.slice(k + del);
          }
          // Squares at the start of a buffer of their own (the repeated ranks copied a word at a time), or not (a square at a time).
          const squares = (ownBuffer ? new Int8Array(128) : new Int8Array(new ArrayBuffer(129), 1)).fill(99);
          const first = asBytes(before);
          expect(fenBoardEnd(first.b, first.a, first.end, squares, 0)).toBeGreaterThan(0);
          let same = 0;
          while (same < before.length && before[same] === text[same]) same++;
          const { b, a, end } = asBytes(text);
          const space = fenBoardEnd(b, a, end, squares, 64, 0, same);
          const q = space < 0 ? -1 : fenFieldsEnd(b, a, space, end);
          const want = byText(text);
          expect(q < 0 ? -1 : fenKept).toBe(want.kept);
          if (q >= 0) expect(Array.from(squares.subarray(64))).toEqual(want.squares);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never past the end it is given', () => {
    const fen = played[0];
    const { b, a } = asBytes(fen);
    // The string's closing quote lies at or past `end`: not taken.
    expect(fenFieldsEnd(b, a, a + fen.indexOf(' '), a + fen.length)).toBe(-1);
    expect(fenBoardEnd(b, a, a + 10, new Int8Array(64), 0)).toBe(-1);
  });
});
