import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BISHOP, KING, KNIGHT, parseDfen, type Position } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import { canMate, canWin, drawnByMaterial, insufficientMaterial } from './game.js';
import type { Rules } from './rules.js';

/** The material counts by their definition, square by square (what the piece-set version must give). */
function materialBySquares(pos: Position, color: 0 | 1 | null): { heavy: boolean; knights: number; minors: number; bishopColors: number } {
  const m = { heavy: false, knights: 0, minors: 0, bishopColors: 0 };
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p === 0 || (color !== null && (p > 0 ? 0 : 1) !== color)) continue;
    const role = p > 0 ? p : -p;
    if (role === KNIGHT) {
      m.knights++;
      m.minors++;
    } else if (role === BISHOP) {
      m.minors++;
      m.bishopColors |= 1 << (((sq >> 3) + (sq & 7)) & 1);
    } else if (role !== KING) m.heavy = true;
  }
  return m;
}

const canMateBySquares = (pos: Position, color: 0 | 1): boolean => {
  const m = materialBySquares(pos, color);
  return m.heavy || (m.minors >= 2 && (m.knights > 0 || m.bishopColors === 3));
};
const insufficientBySquares = (pos: Position): boolean => {
  const m = materialBySquares(pos, null);
  return !m.heavy && (m.minors <= 1 || (m.knights === 0 && m.bishopColors !== 3));
};

/** Kings and a few minor pieces (the cases that decide), sometimes a pawn, rook or queen. */
const sparse = fc
  .tuple(fc.uniqueArray(fc.nat({ max: 63 }), { minLength: 2, maxLength: 9 }), fc.array(fc.constantFrom(...'nNbBbBnNbBpPrRqQ'), { minLength: 7, maxLength: 7 }), fc.constantFrom('w', 'b'))
  .map(([squares, pieces, side]) => {
    const board: string[] = new Array(64).fill('');
    board[squares[0]] = 'K';
    board[squares[1]] = 'k';
    for (let i = 2; i < squares.length; i++) {
      const p = pieces[i - 2];
      board[squares[i]] = (p === 'p' || p === 'P') && (squares[i] >> 3 === 0 || squares[i] >> 3 === 7) ? 'B' : p;
    }
    const ranks: string[] = [];
    for (let r = 7; r >= 0; r--) ranks.push(board.slice(r * 8, r * 8 + 8).map((x) => x || '1').join('').replace(/1+/g, (ones) => String(ones.length)));
    const parsed = parseDfen(`${ranks.join('/')} ${side} - -`);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value.pos;
  });

const rulesOf = (name: string, overrides: string[] = []): Rules => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(name);
  return d.value.rules;
};
const RULES = [rulesOf('chess'), rulesOf('chess', ['draws.insufficientMaterial=cannot-win']), rulesOf('dicechess-com'), rulesOf('dicechess-com', ['draws.insufficientMaterial=cannot-win'])];

describe('material read off the piece sets', () => {
  it('answers as counting square by square: mating material, bare kings, bishops of one colour, winning material', () => {
    let insufficient = 0;
    fc.assert(
      fc.property(sparse, (pos) => {
        expect(insufficientMaterial(pos)).toBe(insufficientBySquares(pos));
        if (insufficientBySquares(pos)) insufficient++;
        for (const c of [0, 1] as const) {
          expect(canMate(pos, c)).toBe(canMateBySquares(pos, c));
          for (const rules of RULES) {
            const m = materialBySquares(pos, c);
            const byDefinition =
              canMateBySquares(pos, c) ||
              (rules.draws.insufficientMaterial === 'cannot-win' && rules.end.kingCapture && (rules.check === 'none' || m.heavy || m.minors > 0));
            expect(canWin(pos, c, rules)).toBe(byDefinition);
          }
        }
        // The draw by material, by its definition (rules.ts): none; FIDE's dead position; or neither side can win.
        for (const rules of RULES) {
          const test = rules.draws.insufficientMaterial;
          const winsBySquares = ([0, 1] as const).map(
            (c) => canMateBySquares(pos, c) || (test === 'cannot-win' && rules.end.kingCapture && (rules.check === 'none' || materialBySquares(pos, c).heavy || materialBySquares(pos, c).minors > 0)),
          );
          const drawn = test === 'none' ? false : test === 'cannot-mate' || !rules.end.kingCapture ? insufficientBySquares(pos) : !winsBySquares[0] && !winsBySquares[1];
          expect(drawnByMaterial(pos, rules)).toBe(drawn);
        }
      }),
      { numRuns: 3000, seed: 12 },
    );
    expect(insufficient).toBeGreaterThan(100);
  });
});
