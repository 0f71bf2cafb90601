import { describe, expect, it } from 'vitest';
import { chess960Fen } from './chess960.js';
import { parseDfen, STANDARD_FEN } from './fen.js';
import { positionKey, positionKeyBySquares } from './hash.js';
import { legalMoves } from './legal.js';
import type { Position } from './position.js';

const position = (fen: string): Position => {
  const r = parseDfen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.pos;
};

describe('positionKey', () => {
  it('is the key by its definition (square by square) over random games, castling and en passant included, kept move by move or read off the piece sets', () => {
    let s = 12345;
    const rnd = (): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    let positions = 0;
    for (let g = 0; g < 40; g++) {
      const pos = position(g % 4 === 3 ? (chess960Fen(g * 23) as { ok: true; value: string }).value : STANDARD_FEN);
      // Half the games keep the pieces' key as they move (as a game counting repetitions does), half read it off the piece sets.
      if (g % 2 === 0) pos.keepPieceKey();
      for (let ply = 0; ply < 150; ply++) {
        expect(positionKey(pos)).toBe(positionKeyBySquares(pos));
        positions++;
        const moves = legalMoves(pos);
        if (moves.length === 0) break;
        pos.make(moves[Math.floor(rnd() * moves.length)]);
        pos.endTurn();
      }
    }
    expect(positions).toBeGreaterThan(3000);
    // Several en passant targets, every castling right.
    const many = position('r3k2r/8/8/pPpPpPpP/8/8/8/R3K2R w KQkq a6c6e6g6');
    expect(positionKey(many)).toBe(positionKeyBySquares(many));
    many.keepPieceKey();
    expect(positionKey(many)).toBe(positionKeyBySquares(many));
    expect(positionKey(many.clone())).toBe(positionKeyBySquares(many));
  });
});
