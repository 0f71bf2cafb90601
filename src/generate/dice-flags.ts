import type { Role } from '../core/index.js';
import type { TurnWalker } from './turn-walker.js';

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

/**
 * `allowed` for each die (roll order), judged on the position the dice were rolled in.
 * Agrees with the rules engine's `spendableDice` (what the replayer checks), computed
 * without enumerating every legal turn. `walker` is restarted.
 */
export function allowedDice(walker: TurnWalker, roles: readonly Role[]): boolean[] {
  if (roles.length === 0) return [];
  return markFirst(roles, spendablePerRole(walker, roles));
}

/** For each role, the most dice of that role some legal turn spends. */
export function spendablePerRole(walker: TurnWalker, roles: readonly Role[]): Int8Array {
  const pos = walker.position;
  // One-move dialects: a single generation; the engine's own answer is cheap.
  if (!walker.spendsDieByDie) return walker.engine.spendableDice(pos, roles);
  walker.begin(pos, roles);
  const counts = new Int8Array(7);
  for (const r of roles) counts[r]++;
  // Most turns can spend every die: every legal turn then does, or captures the king.
  if (walker.targetDice === roles.length && walker.engine.rules.maximum !== 'none') {
    return walker.candidates().length > 0 ? counts : new Int8Array(7);
  }
  const best = new Int8Array(7);
  const path = new Int8Array(7);
  const record = (): boolean => {
    let full = true;
    for (let r = 1; r <= 6; r++) {
      if (path[r] > best[r]) best[r] = path[r];
      if (best[r] < counts[r]) full = false;
    }
    return full;
  };
  const search = (): boolean => {
    const steps = walker.legalSteps();
    if (steps.length === 0) return record();
    for (const m of steps) {
      walker.play(m);
      const spent = walker.spentPerMove[walker.spentPerMove.length - 1];
      for (const r of spent) path[r]++;
      // Prune: this branch matters only if some role can still beat its best.
      let useful = false;
      const left = walker.dicePool;
      for (let r = 1; r <= 6 && !useful; r++) if (path[r] + left.count[r] > best[r]) useful = true;
      const done = useful ? (walker.kingCaptured ? record() : search()) : false;
      for (const r of spent) path[r]--;
      walker.undo();
      if (done) return true;
    }
    return false;
  };
  search();
  return best;
}

function markFirst(roles: readonly Role[], perRole: Int8Array): boolean[] {
  const left = Int8Array.from(perRole);
  return roles.map((r) => {
    if (left[r] > 0) {
      left[r]--;
      return true;
    }
    return false;
  });
}
