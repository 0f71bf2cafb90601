import { PAWN, type Position, pieceSquares } from '../core/index.js';
import type { DicePool } from './dice-pool.js';
import type { Rules } from './rules.js';

/**
 * Bit set of the roles whose dice the side to move can still spend this turn: it has
 * such a piece, or a pawn close enough to promote into one with the pawn dice rolled
 * (any piece type under die-decided promotion), or an en passant capture any die pays
 * for. Dice of other types are dead.
 */
export function livingRoles(pos: Position, pool: DicePool, rules: Rules): number {
  const white = pos.turn === 0;
  let have = 0;
  for (let role = 1; role <= 6; role++) {
    const piece = white ? role : -role;
    if ((pieceSquares(pos, piece, false) | pieceSquares(pos, piece, true)) !== 0) have |= 1 << role;
  }
  if (rules.promotion.die === 'die-piece' || promotable(pos, white, pool.count[PAWN])) have |= 0x3c;
  // En passant on any die: while a target is live, a die of any type may pay for it.
  if (rules.enPassant.die === 'any' && pos.ep !== 0) have |= 0x7e;
  return have;
}

/** Can a pawn of the side reach the last rank with `pawnDice` pawn moves? */
function promotable(pos: Position, white: boolean, pawnDice: number): boolean {
  const pawn = white ? PAWN : -PAWN;
  for (let h = 0; h < 2; h++) {
    for (let bits = pieceSquares(pos, pawn, h === 1); bits !== 0; bits &= bits - 1) {
      const rank = (31 - Math.clz32(bits & -bits) + 32 * h) >> 3;
      if (white ? rank >= 6 - (pawnDice - 1) : rank <= 1 + (pawnDice - 1)) return true;
    }
  }
  return false;
}
