import type { Move, Position, Role } from '../core/index.js';
import { DicePool } from './dice-pool.js';
import { livingRoles } from './living-roles.js';
import type { TurnEngine } from './turn-engine.js';

/**
 * For each role, the most dice of that role some legal turn spends: what a site's
 * per-die `allowed` flags should say (the k-th die of a role is playable iff k < count).
 * A pruned walk over the turn's micro-move sequences, never an enumeration of every turn.
 * `knownTarget`: the dice a legal complete turn without a king capture spends, when the
 * caller already knows it (a recorded legal turn proves it), saving the search for it.
 */
export function spendableDice(engine: TurnEngine, pos: Position, dice: readonly Role[], knownTarget?: number): Int8Array {
  const rules = engine.rules;
  const pool = DicePool.of(dice);
  // A legal turn that spent every die proves them all playable: no search at all.
  if (engine.spendsDieByDie && rules.maximum !== 'none' && knownTarget === pool.total) return Int8Array.from(pool.count);
  const best = new Int8Array(7);
  const walker = new Walker(engine, pos, pool);
  const first = walker.candidates(0);
  if (first.length === 0) return best;
  if (!engine.spendsDieByDie) {
    // One move per turn: a die is playable when some allowed move uses its type.
    if (rules.turn.doublesAnyMove && pool.hasDoubles()) for (const d of dice) best[d] = 1;
    const spent: number[] = [];
    for (const m of first) {
      engine.micro.cost(pos, m, spent, pool);
      for (const r of spent) best[r] = 1;
      const promo = (m >> 12) & 7;
      if (promo && rules.promotion.die === 'die-piece' && !pool.has(1)) best[promo] = 1;
    }
    return best;
  }
  const target = knownTarget ?? engine.targetFor(pos, pool, 0);
  // Every legal turn spends all dice (or captures the king with a subset of them).
  if (rules.maximum !== 'none' && target === pool.total) return Int8Array.from(pool.count);
  return rules.maximum === 'micro-move' ? walker.byLegalSteps(target, best) : walker.bySequences(target, best);
}

/** One search over a turn: its own move buffers per depth, the engine's rules and costs. */
class Walker {
  private readonly buffers: Move[][] = [];
  private readonly path = new Int8Array(7);

  constructor(
    private readonly engine: TurnEngine,
    private readonly pos: Position,
    private readonly pool: DicePool,
  ) {}

  /** Fills this depth's buffer with the allowed micro-moves; returns how many (the buffer may hold stale moves past that). */
  generate(depth: number): number {
    return this.engine.micro.generate(this.pos, this.pool, depth, (this.buffers[depth] ??= []));
  }

  candidates(depth: number): Move[] {
    const n = this.generate(depth);
    return this.buffers[depth].slice(0, n);
  }

  private readonly scratch: number[][] = [];

  /** Plays m on the position, spends its dice, counts them on the path; returns the dice (the depth's scratch list). */
  private play(m: Move, depth: number): number[] {
    const spent = (this.scratch[depth] ??= []);
    this.engine.micro.cost(this.pos, m, spent, this.pool);
    for (const r of spent) {
      this.pool.take(r);
      this.path[r]++;
    }
    this.pos.make(m);
    return spent;
  }

  private undo(m: Move, spent: number[]): void {
    this.pos.unmake(m);
    for (const r of spent) {
      this.pool.give(r);
      this.path[r]--;
    }
  }

  /**
   * Path readings: a complete sequence is legal iff it captures the king (when exempt) or
   * spends the target. A plain walk, pruned by what could still improve a role's best.
   */
  bySequences(target: number, best: Int8Array): Int8Array {
    const { engine, pool, pos, path } = this;
    const rules = engine.rules;
    const exempt = rules.kingCaptureExempt;
    const capped = rules.maximum === 'none' || target < 0 ? pool.total : target;
    // The most any line could show per role: dice of a type the side cannot move are dead.
    const living = livingRoles(pos, pool, rules);
    const most = new Int8Array(7);
    for (let r = 1; r <= 6; r++) most[r] = living & (1 << r) ? pool.count[r] : 0;
    const record = (spent: number, captured: boolean): boolean => {
      if (!(captured && exempt) && spent !== target && rules.maximum !== 'none') return false;
      let done = true;
      for (let r = 1; r <= 6; r++) {
        if (path[r] > best[r]) best[r] = path[r];
        if (best[r] < most[r]) done = false;
      }
      return done;
    };
    const walk = (depth: number, spentSoFar: number): boolean => {
      const n = pool.total === 0 ? 0 : this.generate(depth);
      if (n === 0) return record(spentSoFar, false);
      // Deeper levels use their own buffers, so this one stays intact while we recurse.
      const moves = this.buffers[depth];
      for (let i = 0; i < n; i++) {
        const m = moves[i];
        const captures = engine.micro.capturesKing(pos, m);
        const spent = this.play(m, depth);
        const budget = captures ? 0 : Math.max(0, capped - spentSoFar - spent.length);
        let useful = false;
        for (let r = 1; r <= 6 && !useful; r++) if (Math.min(path[r] + Math.min(pool.count[r], budget), most[r]) > best[r]) useful = true;
        const done = useful && (captures ? record(spentSoFar + spent.length, true) : walk(depth + 1, spentSoFar + spent.length));
        this.undo(m, spent);
        if (done) return true;
      }
      return false;
    };
    walk(0, 0);
    return best;
  }

  /** Micro-move reading: follow only the steps the reading allows. */
  byLegalSteps(target: number, best: Int8Array): Int8Array {
    const { engine, pool, pos, path } = this;
    const full = (): boolean => {
      for (let r = 1; r <= 6; r++) if (path[r] > best[r]) best[r] = path[r];
      for (let r = 1; r <= 6; r++) if (best[r] < pool.count[r] + path[r]) return false;
      return true;
    };
    const search = (depth: number, spentSoFar: number): boolean => {
      const steps = this.candidates(depth).filter((m) => engine.stepLegal(pos, pool, depth, m, spentSoFar, target));
      if (steps.length === 0) return full();
      for (const m of steps) {
        const captures = engine.micro.capturesKing(pos, m);
        const spent = this.play(m, depth);
        const done = captures ? full() : search(depth + 1, spentSoFar + spent.length);
        this.undo(m, spent);
        if (done) return true;
      }
      return false;
    };
    search(0, 0);
    return best;
  }
}
