import { classify, configChanges, type DiffEntry, type DiffSide, diffSide, type RunConfig, type RunDiff } from '../../report/diff.js';
import { settleFolded } from '../../report/diff-folded.js';
import type { Row, SqlValue, Store } from '../store-types.js';

interface Held {
  key: number;
  id: string;
  dialect: string;
  line: number;
  source: string | null;
  side: DiffSide;
}

/** The folded lines present as of `run` (a partial index holds them: a few rows a run). */
async function foldsAsOf(store: Store, run: number, judged: Map<string, number>): Promise<Held[]> {
  const rows = await store.all(`SELECT ${COLUMNS} FROM transitions t JOIN current k ON k.key_id = t.key_id WHERE t.repeats IS NOT NULL AND t.run <= ? AND t.next_run > ? AND t.present = 1`, [run, run]);
  return rows
    .map(held)
    .filter((h) => judged.has(h.dialect))
    .sort((x, y) => x.line - y.line);
}

const COLUMNS = 'k.key_id, k.game, k.dialect, t.line, t.source, t.status, t.rule, t.idx, t.repeats';

const held = (r: Row): Held => ({
  key: Number(r.key_id),
  id: String(r.game),
  dialect: String(r.dialect),
  line: Number(r.line),
  source: r.source === null ? null : String(r.source),
  side: diffSide(r.status as DiffSide['status'], r.rule === null ? null : String(r.rule), Number(r.idx), r.repeats === null ? null : Number(r.repeats)),
});

async function judged(store: Store, run: number): Promise<Map<string, number>> {
  return new Map((await store.all('SELECT dialect, results FROM run_dialects WHERE run = ?', [run])).map((d) => [String(d.dialect), Number(d.results)]));
}

/** Keys that may have changed in (lo, hi], as a subquery of key_id: a superset is fine, the states decide. */
async function candidates(store: Store, lo: number, hi: number, force?: 'since' | 'range'): Promise<{ sql: string; params: SqlValue[] }> {
  // A key's latest transition is its `current.run`: the keys with one after lo are those that
  // changed since lo (a seek on current_run), exactly those that changed in (lo, hi] when hi is
  // at least the history's latest transition (the newest run, the case of every default diff).
  const since = { sql: 'SELECT key_id FROM current WHERE run > ?', params: [lo] };
  const range = { sql: 'SELECT DISTINCT key_id FROM transitions WHERE run > ? AND run <= ?', params: [lo, hi] };
  if (force) return force === 'since' ? since : range;
  const latest = Number((await store.all('SELECT max(run) AS n FROM current'))[0]?.n ?? 0);
  if (hi >= latest) return since;
  // An older range: the keys with a transition in it (the run index), when those are fewer.
  const BOUND = 200_000;
  const keys = Number((await store.all('SELECT count(*) AS n FROM (SELECT 1 FROM current WHERE run > ? LIMIT ?) x', [lo, BOUND]))[0].n);
  const rows = Number((await store.all('SELECT count(*) AS n FROM (SELECT 1 FROM transitions WHERE run > ? AND run <= ? LIMIT ?) x', [lo, hi, keys]))[0].n);
  return rows < keys ? range : since;
}

/** Each candidate key's state as of `run`: its latest row at or before the run (one index seek a key). */
async function asOf(store: Store, run: number, keys: { sql: string; params: SqlValue[] }): Promise<Map<number, Held & { from: number; present: boolean }>> {
  const rows = await store.all(
    `SELECT ${COLUMNS}, t.run, t.present FROM (${keys.sql}) c JOIN current k ON k.key_id = c.key_id
     JOIN transitions t ON t.key_id = c.key_id AND t.run = (SELECT max(x.run) FROM transitions x WHERE x.key_id = c.key_id AND x.run <= ?)`,
    [...keys.params, run],
  );
  return new Map(rows.map((r) => [Number(r.key_id), { ...held(r), from: Number(r.run), present: Number(r.present) === 1 }]));
}

/** Every key of `dialect` held as of `run` (a dialect only one side of the diff judged). */
async function allAsOf(store: Store, run: number, dialect: string): Promise<Held[]> {
  const params: SqlValue[] = [run, run, dialect];
  const rows = await store.all(`SELECT ${COLUMNS} FROM current k JOIN transitions t ON t.key_id = k.key_id AND t.run <= ? AND t.next_run > ? WHERE k.dialect = ? AND t.present = 1`, params);
  return rows.map(held);
}

/** What a recorded run was made under, as its summary's run_info held it (the dialects in the run's order). */
async function runConfigOf(store: Store, run: number): Promise<RunConfig> {
  const [r] = await store.all('SELECT tool_version, options FROM runs WHERE run = ?', [run]);
  const options = JSON.parse(String(r.options)) as Record<string, unknown>;
  const rows = await store.all('SELECT dialect, file, sha256 FROM run_dialects WHERE run = ?', [run]);
  const named = Array.isArray(options.dialects) ? options.dialects.map((d) => String(d).split(' --set ')[0]) : [];
  const at = (d: string) => (named.indexOf(d) + 1 || named.length + 1);
  rows.sort((x, y) => at(String(x.dialect)) - at(String(y.dialect)) || (String(x.dialect) < String(y.dialect) ? -1 : 1));
  const dialects = Object.fromEntries(rows.map((d) => [String(d.dialect), { file: d.file === null ? null : String(d.file), sha256: d.sha256 === null ? null : String(d.sha256) }]));
  return { version: r.tool_version === null ? undefined : String(r.tool_version), dialects, options };
}

/** A recorded diff: `diff`'s classes, and (as `diff --json` gives it) what differs between the runs' configurations. */
export type RecordedDiff = RunDiff & { configChanges?: string[] };

/**
 * Any two recorded runs, in the classes of `diff` and in its order (B's lines, then A's for
 * gone), paired by game id + dialect + occurrence as `diff` on the two folders pairs them.
 * Read from the transitions: only keys that changed between the two runs are compared one by
 * one; the others count as unchanged from the runs' per-dialect line counts. `opts.keys` names
 * which candidate keys to read (the keys changed since the older run, or those with a
 * transition in between) instead of choosing the cheaper: both give the same diff.
 */
export async function diffRecorded(store: Store, runA: number, runB: number, opts: { keys?: 'since' | 'range' } = {}): Promise<RecordedDiff> {
  const [inA, inB] = [await judged(store, runA), await judged(store, runB)];
  const lo = Math.min(runA, runB);
  const hi = Math.max(runA, runB);
  const both = (h: Held) => inA.has(h.dialect) && inB.has(h.dialect);
  // Only keys whose state as of hi began after lo changed between the two runs; the others hold the same row at both.
  const keys = await candidates(store, lo, hi, opts.keys);
  const atA = await asOf(store, runA, keys);
  const atB = await asOf(store, runB, keys);
  const atHi = runB >= runA ? atB : atA;
  const changed = (h: { key: number }) => (atHi.get(h.key)?.from ?? 0) > lo;
  let sideA: Held[] = [...atA.values()].filter((h) => h.present && both(h) && changed(h));
  let sideB: Held[] = [...atB.values()].filter((h) => h.present && both(h) && changed(h));
  for (const d of inA.keys()) if (!inB.has(d)) sideA.push(...(await allAsOf(store, runA, d)));
  for (const d of inB.keys()) if (!inA.has(d)) sideB.push(...(await allAsOf(store, runB, d)));
  sideA.sort((x, y) => x.line - y.line);
  sideB.sort((x, y) => x.line - y.line);
  // Folded lines are never paired by key: every one of each run is set against the other's records (diff-folded.ts), as `diff` does.
  const notFold = (h: Held) => h.side.repeats === undefined;
  sideA = sideA.filter(notFold);
  sideB = sideB.filter(notFold);
  const [foldsA, foldsB] = [await foldsAsOf(store, runA, inA), await foldsAsOf(store, runB, inB)];

  const out: RunDiff = { fixed: [], broken: [], reclassified: [], new: [], gone: [], faulted: [], repairedFaults: [], unchanged: 0 };
  // Lines of B the changed keys do not cover are the same in A.
  const covered = new Map<string, number>();
  for (const b of [...sideB, ...foldsB]) covered.set(b.dialect, (covered.get(b.dialect) ?? 0) + 1);
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
  settleFolded(out, foldsA, foldsB);
  const changes = configChanges(await runConfigOf(store, runA), await runConfigOf(store, runB));
  return changes.length > 0 ? { ...out, configChanges: changes } : out;
}
