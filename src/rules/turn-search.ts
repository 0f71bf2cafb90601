import { ANY_DIE, type Move, type Position } from '../core/index.js';
import { type DiceCost, diceIn, NO_DICE } from './dice-cost.js';
import type { DicePool } from './dice-pool.js';
import { livingRoles } from './living-roles.js';
import { MicroMoves } from './micro-moves.js';
import type { Rules } from './rules.js';
import { TurnMemo } from './turn-memo.js';

const NEG = -1000;

/**
 * The maximum search of one dialect: the most dice a continuation can spend (best), the
 * turn's target, whether one micro-move is legal at a point of the turn (stepLegal), and
 * whether the king can be captured this turn. It mutates the position and pool it is given
 * and restores them. The turn engine (judging, listing turns) and the spendable-dice flags
 * use it; it uses the micro-move generator alone.
 */
export class TurnSearch {
  readonly micro: MicroMoves;
  /** The last turn start's target (the judge and the flags check ask about the same one). */
  readonly memo = new TurnMemo();
  private readonly buffers: Move[][] = [];
  private readonly eachDie: boolean;
  private readonly countsMoves: boolean;

  /** Does every die pay for its own micro-move (as opposed to one move per turn)? */
  get spendsDieByDie(): boolean {
    return this.eachDie;
  }

  constructor(readonly rules: Rules) {
    this.micro = new MicroMoves(rules);
    this.eachDie = rules.turn.structure === 'each-die' && rules.dice.count > 0;
    this.countsMoves = rules.maximumCounts === 'moves';
    for (let i = 0; i < 16; i++) this.buffers.push([]);
  }

  /** What a micro-move of this cost counts toward the maximum: its dice, or one move (`maximumCounts: "moves"`). */
  counted(cost: DiceCost): number {
    return this.countsMoves && cost !== NO_DICE ? 1 : diceIn(cost);
  }

  /** Allowed micro-moves at depth `micro` into that depth's own buffer (deeper searches use deeper buffers). */
  gen(pos: Position, pool: DicePool, micro: number): { buf: Move[]; n: number } {
    const buf = this.buffers[micro] ?? (this.buffers[micro] = []);
    const n = this.micro.generate(pos, pool, micro, buf);
    this.genResult.buf = buf;
    this.genResult.n = n;
    return this.genResult;
  }
  private readonly genResult = { buf: [] as Move[], n: 0 };
  /** Takes the dice a micro-move costs from the pool; returns them (packed). */
  spend(pos: Position, m: Move, pool: DicePool): DiceCost {
    const cost = this.micro.costOf(pos, m, pool);
    pool.pay(cost);
    return cost;
  }

  /**
   * Most dice any continuation can spend. `countCaptures`: a king-capture line counts
   * its dice up to the capture (path-all, micro-move); otherwise such lines are not
   * complete turns and a state whose only continuations capture the king is worth NEG.
   */
  best(pos: Position, pool: DicePool, micro: number, countCaptures: boolean): number {
    if (pool.total === 0 || !this.eachDie) return 0;
    const { buf, n } = this.gen(pos, pool, micro);
    if (n === 0) return 0;
    // No line can spend a die whose piece type is gone: stop as soon as a line reaches that bound.
    const bound = this.spendBound(pos, pool);
    let best = NEG;
    // Deeper levels use their own buffers, so this one stays intact while we recurse.
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      let value: number;
      if (this.micro.capturesKing(pos, m)) {
        if (!countCaptures) continue;
        value = this.counted(this.micro.costOf(pos, m));
      } else {
        const cost = this.spend(pos, m, pool);
        pos.make(m);
        value = this.counted(cost) + this.best(pos, pool, micro + 1, countCaptures);
        pos.unmake(m);
        pool.refund(cost);
      }
      if (value > best) {
        best = value;
        if (best >= bound) break;
      }
    }
    return best;
  }

  /**
   * An upper bound on the dice a continuation can spend: dice of a piece type the side
   * no longer has are dead, unless a pawn could still promote into that type this turn.
   */
  private spendBound(pos: Position, pool: DicePool): number {
    const have = livingRoles(pos, pool, this.rules);
    // A die that pays for any piece (a count die's) is never dead.
    let bound = pool.count[ANY_DIE];
    for (let r = 1; r <= 6; r++) if (have & (1 << r)) bound += pool.count[r];
    return bound;
  }

  /** Can some continuation capture the king this turn? */
  canCaptureKing(pos: Position, pool: DicePool, micro: number): boolean {
    if (pool.total === 0) return false;
    const { buf, n } = this.gen(pos, pool, micro);
    for (let i = 0; i < n; i++) if (this.micro.capturesKing(pos, buf[i])) return true;
    if (!this.eachDie) return false;
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      const cost = this.spend(pos, m, pool);
      pos.make(m);
      const yes = this.canCaptureKing(pos, pool, micro + 1);
      pos.unmake(m);
      pool.refund(cost);
      if (yes) return true;
    }
    return false;
  }

  /** The target number of dice a non-capturing turn must spend from the turn's start. */
  target(pos: Position, pool: DicePool, micro: number): number {
    if (micro !== 0) return this.best(pos, pool, micro, this.capturesCount);
    // The judge and the flags check ask about the same turn start: remember the last one.
    const memo = this.memo;
    if (memo.matches(pos, pool)) return memo.target;
    const value = this.best(pos, pool, 0, this.capturesCount);
    memo.store(pos, pool, value, null);
    return value;
  }

  /** King-capture lines count toward the maximum (path-all), or are not exempt from it at all. */
  get capturesCount(): boolean {
    return this.rules.maximum === 'path-all' || !this.rules.kingCaptureExempt;
  }

  /**
   * Is micro-move m (an allowed candidate) legal at this point of the turn, given the
   * dice spent so far and the turn's target M? Used for first moves and continuations.
   */
  stepLegal(pos: Position, pool: DicePool, micro: number, m: Move, spentSoFar: number, target: number): boolean {
    if (!this.eachDie) return true;
    const reading = this.rules.maximum;
    if (reading === 'none') return true;
    const exempt = this.rules.kingCaptureExempt;
    if (this.micro.capturesKing(pos, m)) {
      if (exempt) return true;
      const dice = this.counted(this.micro.costOf(pos, m));
      return reading === 'micro-move' ? dice === target - spentSoFar && dice === this.best(pos, pool, micro, true) : spentSoFar + dice === target;
    }
    const cost = this.spend(pos, m, pool);
    const dice = this.counted(cost);
    pos.make(m);
    let legal: boolean;
    if (reading === 'micro-move') {
      legal = dice + this.best(pos, pool, micro + 1, true) === target - spentSoFar;
    } else {
      legal = spentSoFar + dice + this.best(pos, pool, micro + 1, !exempt) === target || (exempt && this.canCaptureKing(pos, pool, micro + 1));
    }
    pos.unmake(m);
    pool.refund(cost);
    return legal;
  }

  targetFor(pos: Position, pool: DicePool, micro: number): number {
    if (!this.eachDie || this.rules.maximum === 'none') return 0;
    return this.rules.maximum === 'micro-move' ? this.best(pos, pool, micro, true) : this.target(pos, pool, micro);
  }
}
