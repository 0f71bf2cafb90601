import { type GenOptions, generateCastling, generateMoves, KING, type Move, type Position, STANDARD_PROMOTIONS } from '../core/index.js';

/**
 * A debugging count from the peer engine's vectors, not a rules claim: every ply the
 * side to move plays any pseudo-legal move of the fixed die's piece type (no maximum
 * rule; castling counted on a king die whether or not a rook die is rolled), then the
 * turn passes to the other side with the same die.
 */
export function diePerft(pos: Position, die: number, depth: number): number {
  if (depth === 0) return 1;
  const opts: GenOptions = { roles: 1 << die, enPassant: true, promotions: STANDARD_PROMOTIONS, castling: false, castlingOrthodox: false };
  const buf: Move[] = [];
  let n = generateMoves(pos, pos.turn, opts, buf, 0);
  if (die === KING) n = generateCastling(pos, pos.turn, false, buf, n);
  if (depth === 1) return n;
  let total = 0;
  const moves = buf.slice(0, n);
  for (const m of moves) {
    const color = pos.turn;
    const ep = pos.ep;
    const full = pos.fullmove;
    pos.make(m);
    pos.endTurn();
    total += diePerft(pos, die, depth - 1);
    pos.turn = color;
    pos.ep = ep;
    pos.fullmove = full;
    pos.unmake(m);
  }
  return total;
}
