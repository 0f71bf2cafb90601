import { ANY_DIE, type Die, ROLE_NAMES } from '../core/index.js';

/** A die's name in findings: its role, or "any piece" (ANY_DIE). */
export const dieName = (d: number): string => (d === ANY_DIE ? 'any piece' : ROLE_NAMES[d]);
import { type DiceCost, diceIn, dieRole } from './dice-cost.js';

/** Unspent dice of a turn as counts per die value (index 1–6 the roles, 7 ANY_DIE), plus the total. */
export class DicePool {
  readonly count = new Int8Array(8);
  total = 0;
  /** Bit r set: a die of value r is unspent (kept in step with `count`, so `roles` is one read). */
  private mask = 0;

  static of(dice: readonly Die[]): DicePool {
    return new DicePool().reset(dice);
  }

  /** Refills the pool with a new roll (reuse on hot paths instead of allocating). */
  reset(dice: readonly Die[]): this {
    const count = this.count;
    // Plain loops: this runs several times per judged turn.
    for (let r = 0; r <= ANY_DIE; r++) count[r] = 0;
    let mask = 0;
    for (let i = 0; i < dice.length; i++) {
      const d = dice[i];
      count[d]++;
      // Only a die value the counts hold (0–7) has a count to read: others set no bit.
      if (count[d] > 0) mask |= 1 << d;
    }
    this.mask = mask;
    this.total = dice.length;
    return this;
  }

  has(role: number): boolean {
    return this.count[role] > 0;
  }

  take(role: number): void {
    if (--this.count[role] <= 0) this.mask &= ~(1 << role);
    this.total--;
  }

  give(role: number): void {
    if (++this.count[role] > 0) this.mask |= 1 << role;
    this.total++;
  }

  /** Takes the dice of a micro-move's cost. */
  pay(cost: DiceCost): void {
    for (let i = 0; i < diceIn(cost); i++) this.take(dieRole(cost, i));
  }

  /** Gives back the dice of a micro-move's cost. */
  refund(cost: DiceCost): void {
    for (let i = 0; i < diceIn(cost); i++) this.give(dieRole(cost, i));
  }

  /** Bit set of roles with an unspent die (bit 7: an ANY_DIE). */
  roles(): number {
    return this.mask & 0xfe;
  }

  /** The unspent dice, sorted by piece value (ANY_DIE last). */
  list(): Die[] {
    const out: Die[] = [];
    for (let r = 1; r <= ANY_DIE; r++) for (let i = 0; i < this.count[r]; i++) out.push(r as Die);
    return out;
  }

  /** Doubles: at least two dice show the same face. */
  hasDoubles(): boolean {
    for (let r = 1; r <= 6; r++) if (this.count[r] > 1) return true;
    return false;
  }
}
