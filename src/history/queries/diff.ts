import { classify, type DiffEntry, type DiffSide, type RunDiff } from '../../report/diff.js';
import type { Row, SqlValue, Store } from '../store-types.js';

interface Held {
  key: number;
  id: string;
  dialect: string;
  line: number;
  source: string | null;
  side: DiffSide;
}

const COLUMNS = 'k.key_id, k.game, k.dialect, t.line, t.source, t.status, t.rule, t.idx';

const held = (r: Row): Held => ({
  key: Number(r.key_id),
  id: String(r.game),
  dialect: String(r.dialect),
  line: Number(r.line),
  source: r.source === null ? null : String(r.source),
  side: { status: r.status as DiffSide['status'], rule: r.rule === null ? null : String(r.rule), index: Number(r.idx) },
});

async function judged(store: Store, run: number): Promise<Map<string, number>> {
  return new Map((await store.all('SELECT dialect, results FROM run_dialects WHERE run = ?', [run])).map((d) => [String(d.dialect), Number(d.results)]));
}

/** The state as of `run` of the keys with a transition in (lo, hi]: a key without one is the same at both ends. */
async function changedAsOf(store: Store, run: number, lo: number, hi: number): Promise<Held[]> {
  const rows = await store.all(
    `SELECT ${COLUMNS} FROM (SELECT DISTINCT key_id FROM transitions WHERE run > ? AND run <= ?) c
     JOIN transitions t ON t.key_id = c.key_id AND t.run <= ? AND t.next_run > ? JOIN current k ON k.key_id = t.key_id WHERE t.present = 1`,
    [lo, hi, run, run],
  );
  return rows.map(held);
}

/** Every key of `dialect` held as of `run` (a dialect only one side of the diff judged). */
async function allAsOf(store: Store, run: number, dialect: string): Promise<Held[]> {
  const params: SqlValue[] = [run, run, dialect];
  const rows = await store.all(`SELECT ${COLUMNS} FROM current k JOIN transitions t ON t.key_id = k.key_id AND t.run <= ? AND t.next_run > ? WHERE k.dialect = ? AND t.present = 1`, params);
  return rows.map(held);
}

/**
 * Any two recorded runs, in the classes of `diff` and in its order (B's lines, then A's for
 * gone), paired by game id + dialect + occurrence as `diff` on the two folders pairs them.
 * Read from the transitions: only keys that changed between the two runs are compared one by
 * one; the others count as unchanged from the runs' per-dialect line counts.
 */
export async function diffRecorded(store: Store, runA: number, runB: number): Promise<RunDiff> {
  const [inA, inB] = [await judged(store, runA), await judged(store, runB)];
  const lo = Math.min(runA, runB);
  const hi = Math.max(runA, runB);
  const both = (h: Held) => inA.has(h.dialect) && inB.has(h.dialect);
  const sideA = (await changedAsOf(store, runA, lo, hi)).filter(both);
  const sideB = (await changedAsOf(store, runB, lo, hi)).filter(both);
  for (const d of inA.keys()) if (!inB.has(d)) sideA.push(...(await allAsOf(store, runA, d)));
  for (const d of inB.keys()) if (!inA.has(d)) sideB.push(...(await allAsOf(store, runB, d)));
  sideA.sort((x, y) => x.line - y.line);
  sideB.sort((x, y) => x.line - y.line);

  const out: RunDiff = { fixed: [], broken: [], reclassified: [], new: [], gone: [], faulted: [], repairedFaults: [], unchanged: 0 };
  // Lines of B the changed keys do not cover are the same in A.
  const covered = new Map<string, number>();
  for (const b of sideB) covered.set(b.dialect, (covered.get(b.dialect) ?? 0) + 1);
  for (const [d, lines] of inB) if (inA.has(d)) out.unchanged += lines - (covered.get(d) ?? 0);
  const before = new Map(sideA.map((a) => [a.key, a]));
  for (const b of sideB) {
    const a = before.get(b.key);
    const entry: DiffEntry = { id: b.id, dialect: b.dialect, source: b.source, before: a?.side ?? null, after: b.side };
    if (!a) {
      out.new.push(entry);
      continue;
    }
    before.delete(b.key);
    const category = classify(a.side, b.side);
    if (category === 'unchanged') out.unchanged++;
    else out[category].push(entry);
  }
  for (const a of before.values()) out.gone.push({ id: a.id, dialect: a.dialect, source: a.source, before: a.side, after: null });
  return out;
}
