import type { Die } from '../core/index.js';
import type { TurnWalker } from '../rules/turn-walker.js';

/**
 * The per-die flags a site like dicechess.com records: `allowed` (the site's verdict that
 * this die can be spent by some legal sequence of micro-moves: the others are dimmed at
 * once) and `used` (the die was spent by the turn as played).
 *
 * With duplicates, the first k dice of a face in roll order are allowed, where k is the
 * most dice of that face any legal turn spends (one-move dialects: at most one).
 */
export interface DieFlag {
  allowed: boolean;
  used: boolean;
}

/** `allowed` for each die (roll order), judged on the position the dice were rolled in, by the engine the replayer checks them with. */
export function allowedDice(walker: TurnWalker, roles: readonly Die[]): boolean[] {
  if (roles.length === 0) return [];
  return markFirst(roles, walker.engine.spendableDice(walker.position, roles));
}

function markFirst(roles: readonly Die[], perRole: Int8Array): boolean[] {
  const left = Int8Array.from(perRole);
  return roles.map((r) => {
    if (left[r] > 0) {
      left[r]--;
      return true;
    }
    return false;
  });
}
