import type { Role } from '../core/types.js';
import { FairDice, type FairnessReveal } from './fairness.js';
import type { Prng } from './prng.js';

/** Dice faces: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king (a face is the role it permits). */
export const FACES: readonly Role[] = [1, 2, 3, 4, 5, 6];

/** One fair six-sided die. */
export const rollDie = (prng: Prng): Role => (prng.nextInt(6) + 1) as Role;

/** `count` independent fair d6, in roll order. */
export function rollD6(prng: Prng, count = 3): Role[] {
  const out: Role[] = [];
  for (let i = 0; i < count; i++) out.push(rollDie(prng));
  return out;
}

/**
 * BrainKing's roll: the site never shows a piece type that cannot move, so the die is
 * uniform over the distinct faces given (the types with at least one legal move).
 * Duplicates in `faces` do not weigh the draw. Null when `faces` is empty.
 */
export function rollMovableFace(prng: Prng, faces: readonly Role[]): Role | null {
  let mask = 0;
  for (const f of faces) mask |= 1 << f;
  const distinct = FACES.filter((f) => (mask & (1 << f)) !== 0);
  return distinct.length === 0 ? null : distinct[prng.nextInt(distinct.length)];
}

/** How a dialect draws its dice (the `Rules.dice.draw` values). */
export type DrawMethod = 'fair' | 'movable-types' | 'provably-fair';

/** Draws the dice of each ply of one game. */
export interface Roller {
  readonly method: DrawMethod;
  /**
   * Dice of ply `ply` (0-based, passes included) in roll order. `movable` is asked
   * only by the movable-types method: the faces that have a legal move now.
   */
  roll(ply: number, movable?: () => readonly Role[]): Role[];
}

export interface RollerOptions {
  method: DrawMethod;
  /** Dice per roll (ignored by movable-types, which rolls one). */
  count: number;
  /** Required for `fair` and `movable-types`. */
  prng?: Prng;
  /** Required for `provably-fair`. */
  reveal?: FairnessReveal;
}

export function makeRoller(options: RollerOptions): Roller {
  const { method, count } = options;
  switch (method) {
    case 'fair': {
      const prng = need(options.prng, 'fair');
      return { method, roll: () => rollD6(prng, count) };
    }
    case 'movable-types': {
      const prng = need(options.prng, 'movable-types');
      return {
        method,
        roll: (_ply, movable) => {
          // When nothing at all can move the site's behaviour is open; a plain die is shown and the turn passes.
          const face = movable ? rollMovableFace(prng, movable()) : null;
          return [face ?? rollDie(prng)];
        },
      };
    }
    case 'provably-fair': {
      const fair = new FairDice(need(options.reveal, 'provably-fair'), count);
      return { method, roll: (ply) => fair.roll(ply) as Role[] };
    }
  }
}

function need<T>(value: T | undefined, method: string): T {
  if (value === undefined) throw new TypeError(`the ${method} roller needs ${method === 'provably-fair' ? 'a reveal' : 'a prng'}`);
  return value;
}
