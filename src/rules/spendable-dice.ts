import type { Die, Move, Position } from '../core/index.js';
import { type DiceCost, diceIn, dieRole } from './dice-cost.js';
import { DicePool } from './dice-pool.js';
import { livingRoles } from './living-roles.js';
import type { TurnSearch } from './turn-search.js';
import type { TurnMemo } from './turn-memo.js';

/**
 * For each role, the most dice of that role some legal turn spends: what a site's
 * per-die `allowed` flags should say (the k-th die of a role is playable iff k < count).
 * A pruned walk over the turn's micro-move sequences, never an enumeration of every turn.
 * One instance per engine, reused for every turn: its buffers and state live here.
 */
export class SpendableDice {
  private readonly buffers: Move[][] = [];
  private readonly path = new Int8Array(7);
  private readonly most = new Int8Array(7);
  private readonly ownPool = new DicePool();
  /** `prove`'s answer (the caller copies it). */
  private readonly proof = new Int8Array(7);
  private pos!: Position;
  private pool!: DicePool;
  // The current sequence walk (see `walk`).
  private best: Int8Array = new Int8Array(7);
  private target = 0;
  private capped = 0;
  private exempt = false;
  private countCaptures = false;
  private proving = false;
  private collecting = false;
  private exceeded = false;

  constructor(
    private readonly search: TurnSearch,
    private readonly memo: TurnMemo,
  ) {}

  /**
   * The spendable dice of `dice` on `pos`, per role (index 1–6), into `out` (7 entries,
   * zeroed here) or a fresh array. `knownTarget`: the dice a legal complete turn without a
   * king capture spends, when the caller already knows it (a recorded legal turn proves
   * it), saving the search for it.
   */
  of(pos: Position, dice: readonly Die[], givenTarget?: number, out?: Int8Array): Int8Array {
    // A caller's target counts dice; the maximum counting moves finds its own.
    const knownTarget = this.search.rules.maximumCounts === 'moves' ? undefined : givenTarget;
    const known = this.fromTarget(dice, knownTarget, out);
    if (known) return known;
    const search = this.search;
    const rules = search.rules;
    const pool = this.ownPool.reset(dice);
    const best = out ? clear(out) : new Int8Array(7);
    // The judge may just have proved this start's target, finding the answer on the way.
    const memo = this.memo;
    if (memo.hasSpendable && memo.matches(pos, pool) && (knownTarget ?? memo.target) === memo.target) return copy(memo.spendable, best);
    this.begin(pos, pool);
    const first = this.generate(0);
    if (first === 0) return best;
    if (!search.spendsDieByDie) {
      // One move per turn: a die is playable when some allowed move uses its type.
      if (rules.turn.doublesAnyMove && pool.hasDoubles()) for (const d of dice) best[d] = 1;
      const spent: number[] = [];
      const moves = this.buffers[0];
      for (let i = 0; i < first; i++) {
        const m = moves[i];
        search.micro.cost(pos, m, spent, pool);
        // The cost names the die that pays (die-piece promotions: the piece's die, not the pawn's).
        for (const r of spent) best[r] = 1;
      }
      return best;
    }
    const target = knownTarget ?? search.targetFor(pos, pool, 0);
    // Every legal turn spends all dice (or captures the king with a subset of them).
    if (rules.maximum !== 'none' && target === pool.total) return copy(pool.count, best);
    return rules.maximum === 'micro-move' ? this.byLegalSteps(target, best) : this.bySequences(target, best, false);
  }

  /**
   * `of` when the target alone decides, without the position: a legal turn that spent every
   * die proves them all playable. Null when it takes a look at the turn's start.
   */
  fromTarget(dice: readonly Die[], knownTarget: number | undefined, out?: Int8Array): Int8Array | null {
    const search = this.search;
    if (!search.spendsDieByDie || search.rules.maximum === 'none' || search.rules.maximumCounts === 'moves' || knownTarget !== dice.length) return null;
    return copy(this.ownPool.reset(dice).count, out ? clear(out) : new Int8Array(7));
  }

  /**
   * The judge's check of a recorded turn that spent `spent` dice and could not go on from
   * its end (path readings, with dice only ever paying for the moves of their own piece
   * type: see TurnEngine.provable). Proves that no turn from this start spends more, so
   * `spent` is the target, and returns the spendable dice for that target found on the
   * way; null when some turn spends more (the caller then searches the slow way). The
   * recorded turn is itself a turn spending `spent`, so "no more" means "exactly".
   */
  prove(pos: Position, pool: DicePool, spent: number): Int8Array | null {
    this.begin(pos, pool);
    const living = livingRoles(pos, pool, this.search.rules);
    let bound = 0;
    for (let r = 1; r <= 6; r++) bound += living & (1 << r) ? pool.count[r] : 0;
    const best = clear(this.proof);
    if (bound <= spent) {
      // No turn spends a dead die, so every turn spending `spent` spends every living die.
      for (let r = 1; r <= 6; r++) best[r] = living & (1 << r) ? pool.count[r] : 0;
      return best;
    }
    this.bySequences(spent, best, true);
    return this.exceeded ? null : best;
  }

  private begin(pos: Position, pool: DicePool): void {
    this.pos = pos;
    this.pool = pool;
    clear(this.path);
  }

  /** Fills this depth's buffer with the allowed micro-moves; returns how many (the buffer may hold stale moves past that). */
  private generate(depth: number): number {
    return this.search.micro.generate(this.pos, this.pool, depth, (this.buffers[depth] ??= []));
  }

  /** Plays m on the position, spends its dice, counts them on the path; returns the dice. */
  private play(m: Move): DiceCost {
    const cost = this.search.micro.costOf(this.pos, m, this.pool);
    this.pool.pay(cost);
    for (let i = 0; i < diceIn(cost); i++) this.path[dieRole(cost, i)]++;
    this.pos.make(m);
    return cost;
  }

  private undo(m: Move, cost: DiceCost): void {
    this.pos.unmake(m);
    this.pool.refund(cost);
    for (let i = 0; i < diceIn(cost); i++) this.path[dieRole(cost, i)]--;
  }

  /**
   * Path readings: a complete sequence is legal iff it captures the king (when exempt) or
   * spends the target. A plain walk, pruned by what could still improve a role's best.
   * `prove`: also look for a sequence spending more than the target (`exceeded`), through
   * the parts the flags walk prunes too; the flags walk itself is unchanged, so its
   * answer is the same.
   */
  private bySequences(target: number, best: Int8Array, prove: boolean): Int8Array {
    const rules = this.search.rules;
    const pool = this.pool;
    this.best = best;
    this.target = target;
    this.exempt = rules.kingCaptureExempt;
    this.countCaptures = rules.maximum === 'path-all' || !rules.kingCaptureExempt;
    this.capped = rules.maximum === 'none' || target < 0 ? pool.total : target;
    this.proving = prove;
    this.collecting = true;
    this.exceeded = false;
    // The most any line could show per role: dice of a type the side cannot move are dead.
    const living = livingRoles(this.pos, pool, rules);
    for (let r = 1; r <= 6; r++) this.most[r] = living & (1 << r) ? pool.count[r] : 0;
    this.walk(0, 0, true);
    return best;
  }

  /**
   * One node of the sequence walk; true stops the whole walk. `collect`: the flags walk
   * goes here (otherwise only the proof does, and records nothing).
   */
  private walk(depth: number, spentSoFar: number, collect: boolean): boolean {
    const pool = this.pool;
    const n = pool.total === 0 ? 0 : this.generate(depth);
    if (n === 0) {
      if (this.proving && spentSoFar > this.target) return (this.exceeded = true);
      return collect && this.record(spentSoFar, false);
    }
    const micro = this.search.micro;
    const pos = this.pos;
    // Deeper levels use their own buffers, so this one stays intact while we recurse.
    const moves = this.buffers[depth];
    for (let i = 0; i < n; i++) {
      const m = moves[i];
      const captures = micro.capturesKing(pos, m);
      const collecting = collect && this.collecting;
      // A king capture the maximum does not count matters to the flags only.
      if (captures && !collecting && !this.countCaptures) continue;
      const cost = this.play(m);
      const after = spentSoFar + this.search.counted(cost);
      let stop = false;
      if (captures) {
        if (this.proving && this.countCaptures && after > this.target) stop = this.exceeded = true;
        else if (collecting && this.useful(0)) stop = this.record(after, true);
      } else {
        // A line that ends by capturing the king is legal whatever it spends (exempt), so it may go past the target.
        const deeper = collecting && this.useful(this.exempt ? pool.total : Math.max(0, this.capped - after));
        if (deeper || this.proving) stop = this.walk(depth + 1, after, deeper);
      }
      this.undo(m, cost);
      if (stop) return true;
    }
    return false;
  }

  /** Could a line through the current path still raise some role's best, spending at most `budget` more dice? */
  private useful(budget: number): boolean {
    const { path, most, best } = this;
    const count = this.pool.count;
    for (let r = 1; r <= 6; r++) if (Math.min(path[r] + Math.min(count[r], budget), most[r]) > best[r]) return true;
    return false;
  }

  /** A complete line: counts it when legal; true when every role has reached its most (the flags walk is done). */
  private record(spent: number, captured: boolean): boolean {
    if (!(captured && this.exempt) && spent !== this.target && this.search.rules.maximum !== 'none') return false;
    const { path, most, best } = this;
    let done = true;
    for (let r = 1; r <= 6; r++) {
      if (path[r] > best[r]) best[r] = path[r];
      if (best[r] < most[r]) done = false;
    }
    // The proof goes on without the flags.
    if (done && this.proving) this.collecting = false;
    return done && !this.proving;
  }

  /** Micro-move reading: follow only the steps the reading allows. */
  private byLegalSteps(target: number, best: Int8Array): Int8Array {
    const { search: turnSearch, pool, pos, path } = this;
    const full = (): boolean => {
      for (let r = 1; r <= 6; r++) if (path[r] > best[r]) best[r] = path[r];
      for (let r = 1; r <= 6; r++) if (best[r] < pool.count[r] + path[r]) return false;
      return true;
    };
    const walk = (depth: number, spentSoFar: number): boolean => {
      const n = this.generate(depth);
      const steps = this.buffers[depth].slice(0, n).filter((m) => turnSearch.stepLegal(pos, pool, depth, m, spentSoFar, target));
      if (steps.length === 0) return full();
      for (const m of steps) {
        const captures = turnSearch.micro.capturesKing(pos, m);
        const cost = this.play(m);
        const done = captures ? full() : walk(depth + 1, spentSoFar + turnSearch.counted(cost));
        this.undo(m, cost);
        if (done) return true;
      }
      return false;
    };
    walk(0, 0);
    return best;
  }
}

/** Zeroes per-role counts (index 0–6). */
function clear(counts: Int8Array): Int8Array {
  for (let r = 0; r <= 6; r++) counts[r] = 0;
  return counts;
}

/** Per-role counts (index 1–6) into `out`. */
function copy(from: Int8Array, out: Int8Array): Int8Array {
  for (let r = 1; r <= 6; r++) out[r] = from[r];
  return out;
}
