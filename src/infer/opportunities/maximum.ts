import { type Move, type Position, positionKey } from '../../core/index.js';
import { DicePool, type MaximumReading, type TurnEngine } from '../../rules/index.js';
import { canCaptureKingThisTurn, mayCaptureKing } from './king-capture.js';

/**
 * Opportunities for the `maximum` option: at a turn start, which reading allows a turn
 * that another forbids? The readings share every micro-move and differ only in which
 * complete sequences they accept. With the king capture exempt (every dialect that has
 * the maximum rule), a complete non-capturing sequence is legal under path iff it spends
 * Mnc (the most any non-capturing line spends), under path-all and micro-move iff it
 * spends L (the most any line spends, capture lines counted up to the capture); a
 * capture line is legal under path and path-all, and under micro-move iff no step before
 * it lost a die the position could spend; `none` takes any non-empty sequence. So:
 *  - no king capture possible this turn: path, path-all and micro-move accept the same
 *    turns, and `none` allows more exactly when a sequence can stop short (the recorded
 *    turn shows that whenever it has two micro-moves or more);
 *  - otherwise three numbers decide every pair: Mnc < L, and a capture after a step
 *    that lost a die.
 * `exhaustive` (and dialects without the exemption) classify every complete sequence
 * by one search instead; a test checks both agree on real games.
 */
export function maximumOpportunities(
  engine: TurnEngine,
  pos: Position,
  pool: DicePool,
  recordedLength: number,
  readings: readonly MaximumReading[],
  conforming: readonly boolean[],
  out: number[][],
  exhaustive = false,
): void {
  const first = firstMoves(engine, pos, pool);
  if (first.length === 0) return; // a forced pass: every reading passes
  const add = (allows: (w: MaximumReading, v: MaximumReading) => boolean): void =>
    readings.forEach((v, j) => conforming[j] && readings.forEach((w, k) => k !== j && allows(w, v) && out[j][k]++));
  const exempt = engine.rules.kingCaptureExempt;
  if (exhaustive || !exempt) {
    add(exhaustiveAllows(engine, pos, pool));
    return;
  }
  // `none` allows any non-empty sequence: stopping short is the turn the others forbid.
  const stopsShort = recordedLength >= 2 || shortSequenceExists(engine, pos, pool, first);
  if (!canCaptureKingThisTurn(engine, pos, pool)) {
    if (stopsShort) add((w, v) => w === 'none' && v !== 'none');
    return;
  }
  // With the king capture exempt (every capture line is legal under path and path-all):
  // path allows the best non-capturing turns, which path-all and micro-move forbid when a
  // capture line spends more dice; micro-move forbids a capture reached after a step that
  // lost a die the position could spend. Nothing else differs (see the method above).
  const L = engine.best(pos, pool, 0, true);
  // Below 0 when no complete line avoids the capture (NEG plus the dice on the way to it):
  // then path accepts every capture line as path-all does.
  const Mnc = engine.best(pos, pool, 0, false);
  const pathShort = Mnc >= 0 && Mnc < L;
  const lateCapture = invalidStepBeforeCapture(engine, pos, pool, 0, L);
  add((w, v) => {
    if (v === 'none') return false;
    if (w === 'none') return stopsShort;
    if (w === 'path') return (v === 'path-all' && pathShort) || (v === 'micro-move' && (pathShort || lateCapture));
    if (w === 'path-all') return v === 'micro-move' && lateCapture;
    return false;
  });
}

const BUFFERS: Move[][] = [];

/**
 * Is there a king capture that micro-move forbids: one reached after a non-capturing step
 * from which fewer dice can be spent than before it (L counts capture lines up to the capture)?
 */
function invalidStepBeforeCapture(engine: TurnEngine, pos: Position, pool: DicePool, micro: number, L: number): boolean {
  if (pool.total === 0 || !mayCaptureKing(engine, pos, pool)) return false;
  const buf = (BUFFERS[micro] ??= []);
  const n = engine.micro.generate(pos, pool, micro, buf);
  for (let i = 0; i < n; i++) {
    const m = buf[i];
    if (engine.micro.capturesKing(pos, m)) continue;
    const cost = engine.micro.costOf(pos, m, pool);
    pool.pay(cost);
    pos.make(m);
    const after = engine.best(pos, pool, micro + 1, true);
    const found = (cost & 3) + after < L ? canCaptureKingThisTurn(engine, pos, pool, micro + 1) : invalidStepBeforeCapture(engine, pos, pool, micro + 1, after);
    pos.unmake(m);
    pool.refund(cost);
    if (found) return true;
  }
  return false;
}

/** The exact comparison: every complete sequence classified by one search, each reading's set compared. */
function exhaustiveAllows(engine: TurnEngine, pos: Position, pool: DicePool): (w: MaximumReading, v: MaximumReading) => boolean {
  const exempt = engine.rules.kingCaptureExempt;
  const root = new KindSearch(engine).run(pos, pool);
  const L = root.best;
  const Mnc = root.bestNoCapture;
  const accepts = (reading: MaximumReading, kind: number): boolean => {
    const spent = kind >> 2;
    const capture = (kind & 2) !== 0;
    const valid = (kind & 1) !== 0;
    switch (reading) {
      case 'none':
        return true;
      case 'micro-move':
        return valid;
      case 'path':
        return capture ? exempt || spent >= L : spent >= (exempt ? Mnc : L);
      case 'path-all':
        return capture ? exempt || spent >= L : spent >= L;
    }
  };
  return (w, v) => {
    if (w === 'none' && v !== 'none' && root.incompletePrefix) return true;
    for (let kinds = root.kinds, kind = 0; kinds !== 0; kinds >>>= 1, kind++) if (kinds & 1 && accepts(w, kind) && !accepts(v, kind)) return true;
    return false;
  };
}

function firstMoves(engine: TurnEngine, pos: Position, pool: DicePool): Move[] {
  const buf: Move[] = [];
  const n = engine.micro.generate(pos, pool, 0, buf);
  return buf.slice(0, n);
}

/**
 * Is there a non-empty sequence that `none` allows and the others do not? A first
 * non-capturing micro-move after which another can be played (stopping there is allowed
 * by `none` only), or a single non-capturing move spending fewer dice than another. A
 * first move that takes the king is legal under every reading.
 */
function shortSequenceExists(engine: TurnEngine, pos: Position, pool: DicePool, first: Move[]): boolean {
  const buf: Move[] = [];
  let most = 0;
  let least = Infinity;
  for (const m of first) {
    // Taking the king ends the turn under every reading: it is never a sequence stopping short.
    if (engine.micro.capturesKing(pos, m)) continue;
    const cost = engine.micro.costOf(pos, m, pool);
    const dice = cost & 3;
    pool.pay(cost);
    pos.make(m);
    const more = pool.total > 0 && engine.micro.generate(pos, pool, 1, buf) > 0;
    pos.unmake(m);
    pool.refund(cost);
    if (more) return true;
    most = Math.max(most, dice);
    least = Math.min(least, dice);
  }
  return least < most;
}

/** The sequences from one state: most dice (capture lines counted up to the capture), most without a capture, the kinds of complete sequences. */
interface Node {
  best: number;
  bestNoCapture: number;
  /** Bit (spent × 4 + capture × 2 + microMoveValid) per kind of complete sequence. */
  kinds: number;
  /** Some non-empty sequence from here can still be extended (only meaningful at the root). */
  incompletePrefix: boolean;
}

const NEG = -1000;
const LEAF: Node = { best: 0, bestNoCapture: 0, kinds: 2 /* spent 0, no capture, valid */, incompletePrefix: false };
const kindBit = (spent: number, capture: boolean, valid: boolean): number => (spent > 7 ? 0 : 1 << (spent * 4 + (capture ? 2 : 0) + (valid ? 1 : 0)));

/** One exhaustive search over a turn's micro-move sequences, with a table of states already searched. */
class KindSearch {
  private readonly seen = new Map<string, Node>();
  private readonly buffers: Move[][] = [];

  constructor(private readonly engine: TurnEngine) {}

  run(pos: Position, pool: DicePool): Node {
    return this.node(pos, DicePool.of(pool.list()), 0);
  }

  private node(pos: Position, pool: DicePool, micro: number): Node {
    if (pool.total === 0) return LEAF;
    // En passant windows can depend on the micro-move index: only the first differs.
    const key = `${positionKey(pos)}:${pool.count.join('')}:${micro === 0 ? 0 : 1}`;
    const hit = this.seen.get(key);
    if (hit) return hit;
    const micro_ = this.engine.micro;
    const buf = this.buffers[micro] ?? (this.buffers[micro] = []);
    const n = micro_.generate(pos, pool, micro, buf);
    if (n === 0) return LEAF;
    const moves = buf.slice(0, n);
    const costs: number[] = [];
    const children: Array<Node | null> = [];
    let best = NEG;
    let bestNoCapture = NEG;
    let incompletePrefix = false;
    for (const m of moves) {
      const cost = micro_.costOf(pos, m, pool);
      const dice = cost & 3;
      costs.push(dice);
      if (micro_.capturesKing(pos, m)) {
        children.push(null);
        best = Math.max(best, dice);
        continue;
      }
      pool.pay(cost);
      pos.make(m);
      const child = this.node(pos, pool, micro + 1);
      pos.unmake(m);
      pool.refund(cost);
      children.push(child);
      if (child !== LEAF) incompletePrefix = true;
      best = Math.max(best, dice + child.best);
      if (child.bestNoCapture > NEG) bestNoCapture = Math.max(bestNoCapture, dice + child.bestNoCapture);
    }
    const exempt = this.engine.rules.kingCaptureExempt;
    let kinds = 0;
    children.forEach((child, i) => {
      const dice = costs[i];
      if (child === null) {
        kinds |= kindBit(dice, true, exempt || dice === best);
        return;
      }
      const stepValid = dice + child.best === best;
      for (let k = child.kinds, kind = 0; k !== 0; k >>>= 1, kind++) {
        if ((k & 1) === 0) continue;
        kinds |= kindBit((kind >> 2) + dice, (kind & 2) !== 0, (kind & 1) !== 0 && stepValid);
      }
    });
    const node: Node = { best, bestNoCapture, kinds, incompletePrefix };
    this.seen.set(key, node);
    return node;
  }
}
