import type { Turn } from '../records/model/game-record.js';
import type { Rules } from '../rules/index.js';

/**
 * The increment a turn earns under a dialect's clock rules: none for a turn the game's
 * end cut short (it never completed), the pass rule for a forced pass, else per turn or
 * per micro-move. One definition for the replayer's clock check and `infer`.
 */
export function earnedIncrementMs(rules: Rules, turn: Turn, partial: boolean, incrementMs: number): number {
  if (partial) return 0;
  if (turn.moves.length === 0) return rules.clock.passEarnsIncrement ? incrementMs : 0;
  return rules.clock.increment === 'per-turn' ? incrementMs : incrementMs * turn.moves.length;
}
