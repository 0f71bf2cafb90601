import type { Die, Move, Position, Role } from '../../core/index.js';
import { DicePool, type TurnEngine } from '../../rules/index.js';

/**
 * Every micro-move sequence a turn could record, as UCI lists: each non-empty path of the
 * micro-move tree (stopping anywhere), a king capture ending its path; the empty turn when
 * nothing moves. The candidates a brute-force comparison judges under every value; null
 * when there are more than `cap`.
 */
export function everySequence(engine: TurnEngine, pos: Position, dice: readonly Die[], cap = 20_000): string[][] | null {
  const out: string[][] = [];
  for (const s of sequences(engine, pos, dice)) {
    out.push(s);
    if (out.length > cap) return null;
  }
  return out;
}

/** The sequences of `everySequence`, one at a time (depth first: a move, then its continuations); the position is restored when the walk ends. */
function* sequences(engine: TurnEngine, pos: Position, dice: readonly Die[]): Generator<string[]> {
  const pool = DicePool.of(dice);
  const prefix: string[] = [];
  let any = false;
  function* walk(micro: number): Generator<string[]> {
    if (pool.total === 0) return;
    const buf: Move[] = [];
    const n = engine.micro.generate(pos, pool, micro, buf);
    for (let i = 0; i < n; i++) {
      const m = buf[i];
      prefix.push(engine.uci(m));
      any = true;
      yield prefix.slice();
      if (!engine.micro.capturesKing(pos, m)) {
        const cost = engine.micro.costOf(pos, m, pool);
        pool.pay(cost);
        pos.make(m);
        try {
          yield* walk(micro + 1);
        } finally {
          pos.unmake(m);
          pool.refund(cost);
        }
      }
      prefix.pop();
    }
  }
  yield* walk(0);
  if (!any) yield [];
}

/**
 * The brute-force answer for turn options: each candidate sequence judged as a whole turn
 * by each value's engine; out[j][k] = 1 when k accepts a turn j refuses. Independent of the
 * opportunity shortcuts: only the judge decides.
 */
export function bruteForcePairs(engines: readonly TurnEngine[], pos: Position | readonly Position[], dice: readonly Die[], cap?: number): { pairs: number[][]; witness: Array<Array<string[] | null>> } | null {
  // One position for every value, or each value's own (options whose values leave different positions).
  const at = (k: number): Position => ('length' in pos ? pos[k] : pos);
  // Every engine generates the same micro-moves for the options compared here, or a superset: take the union.
  const seen = new Set<string>();
  const all: string[][] = [];
  for (const [k, e] of engines.entries()) {
    const seqs = everySequence(e, at(k), dice, cap);
    if (seqs === null) return null;
    for (const s of seqs) {
      const key = s.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        all.push(s);
      }
    }
  }
  const legal = engines.map((e, k) => all.map((s) => e.judge(at(k), dice, s).ok));
  const pairs = engines.map(() => engines.map(() => 0));
  const witness = engines.map(() => engines.map((): string[] | null => null));
  engines.forEach((_, j) =>
    engines.forEach((__, k) => {
      if (j === k) return;
      const i = all.findIndex((_s, x) => legal[k][x] && !legal[j][x]);
      if (i >= 0) {
        pairs[j][k] = 1;
        witness[j][k] = all[i];
      }
    }),
  );
  return { pairs, witness };
}

/**
 * A turn `loose` accepts and `strict` refuses at this turn start (the first found among
 * every sequence either could record), or null when there is none or too many to look
 * through: what an example shows the looser value would also have allowed. `strictPos`:
 * the strict value's own turn start, where the values leave different positions.
 */
export function witnessTurn(strict: TurnEngine, loose: TurnEngine, pos: Position, dice: readonly Die[], cap = 20_000, strictPos: Position = pos): string[] | null {
  // Judging needs the position as the turn starts: take the candidates from a copy.
  const walked = pos.clone();
  let seen = 0;
  for (const s of sequences(loose, walked, dice)) {
    if (++seen > cap) return null;
    if (loose.judge(pos, dice, s).ok && !strict.judge(strictPos, dice, s).ok) return s;
  }
  return null;
}
