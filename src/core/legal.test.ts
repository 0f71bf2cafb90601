import { describe, expect, it } from 'vitest';
import { parseDfen, STANDARD_FEN } from './fen.js';
import { isOrthodoxPieceMove, legalMoves, ORTHODOX } from './legal.js';
import { CASTLE, type Move, moveKind } from './move.js';
import { generateMoves } from './movegen.js';

describe('isOrthodoxPieceMove', () => {
  it('is membership in legalMoves (castling aside) for every pseudo-legal move of either side, over random games', () => {
    let s = 99;
    const rnd = (): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    let checked = 0;
    for (let g = 0; g < 30; g++) {
      const parsed = parseDfen(STANDARD_FEN);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const pos = parsed.value.pos;
      for (let ply = 0; ply < 160; ply++) {
        const legal = legalMoves(pos);
        const listed = new Set(legal.filter((m) => moveKind(m) !== CASTLE));
        for (const color of [0, 1] as const) {
          const pseudo: Move[] = [];
          const n = generateMoves(pos, color, ORTHODOX, pseudo, 0);
          for (let i = 0; i < n; i++) {
            expect(isOrthodoxPieceMove(pos, pseudo[i])).toBe(listed.has(pseudo[i]));
            checked++;
          }
        }
        expect(isOrthodoxPieceMove(pos, -1)).toBe(false);
        if (legal.length === 0) break;
        pos.make(legal[Math.floor(rnd() * legal.length)]);
        pos.endTurn();
      }
    }
    expect(checked).toBeGreaterThan(50000);
  });
});
