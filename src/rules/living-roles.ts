import type { Position } from '../core/index.js';
import type { DicePool } from './dice-pool.js';
import type { Rules } from './rules.js';

/**
 * Bit set of the roles whose dice the side to move can still spend this turn: it has
 * such a piece, or a pawn close enough to promote into one with the pawn dice rolled
 * (any piece type under die-decided promotion). Dice of other types are dead.
 */
export function livingRoles(pos: Position, pool: DicePool, rules: Rules): number {
  const b = pos.board;
  const white = pos.turn === 0;
  let have = 0;
  let promotable = false;
  for (let sq = 0; sq < 64; sq++) {
    const p = b[sq];
    if (p === 0 || p > 0 !== white) continue;
    const role = p > 0 ? p : -p;
    have |= 1 << role;
    if (role === 1) {
      const rank = sq >> 3;
      if (white ? rank >= 6 - (pool.count[1] - 1) : rank <= 1 + (pool.count[1] - 1)) promotable = true;
    }
  }
  if (promotable || rules.promotion.die === 'die-piece') have |= 0x3c;
  return have;
}
