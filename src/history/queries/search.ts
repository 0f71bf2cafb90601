import type { Row, SqlValue, Store } from '../store-types.js';
import { rangeCondition } from './run-ref.js';
import { parseSearch } from './search-grammar.js';
import { OPEN } from '../transitions.js';

export interface SearchRow {
  run: number;
  label: string;
  startedAt: string | null;
  game: string;
  dialect: string;
  status: string;
  rule: string | null;
  source: string | null;
  turn: number | null;
  message: string | null;
  /** With `changed`: the status in the run before (within the range). */
  previousStatus: string | null;
}

export interface SearchAnswer {
  query: string;
  rows: SearchRow[];
  /** More rows matched than the limit. */
  truncated: boolean;
}

/** A value with * as a wildcard, as a LIKE pattern (or an equality when it has none). */
function match(column: string, value: string): { sql: string; params: SqlValue[] } {
  if (!value.includes('*')) return { sql: `${column} = ?`, params: [value] };
  const pattern = value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
  return { sql: `${column} LIKE ? ESCAPE '\\'`, params: [pattern] };
}

const COLUMNS = 't.key_id, t.run, t.next_run, t.line, k.game, k.dialect, t.status, t.rule, t.source, t.turn, t.message, t.prev_status';
const FROM = 'transitions t JOIN current k ON k.key_id = t.key_id';

/** A held row as of a run: the transition row that holds then, shown as that run's row. */
type Held = Row;

/**
 * Result rows matching a query, oldest run first and in each run's line order, as if every
 * run's rows were stored. The terms all bear on one row (a game's state in one run).
 * - `changed`: the transition rows whose status differs from the same game's (dialect's,
 *   occurrence's) status in the run before that held it, that run being in the range too.
 * - otherwise: the rows each run in range held, rebuilt from the transitions: the rows
 *   holding at the range's first run, then each later run's new rows, until the limit.
 */
export async function search(store: Store, query: string, opts: { limit?: number } = {}): Promise<SearchAnswer> {
  const terms = parseSearch(query);
  const limit = opts.limit ?? 500;
  const where: string[] = [];
  const params: SqlValue[] = [];
  const runRange: { sql: (column: string) => Promise<{ sql: string; params: SqlValue[] }> }[] = [];
  let changed = false;
  for (const t of terms) {
    if (t.key === 'changed') {
      changed = true;
      continue;
    }
    if (t.key === 'since' || t.key === 'until') {
      const { key, value } = t;
      runRange.push({ sql: (column) => rangeCondition(store, key, value, column) });
      continue;
    }
    const column = { dialect: 'k.dialect', game: 'k.game', source: 't.source', rule: 't.rule', status: 't.status' }[t.key];
    const m = match(column, t.value);
    where.push(m.sql);
    params.push(...m.params);
  }
  const inRange = async (column: string) => {
    const out = { sql: [] as string[], params: [] as SqlValue[] };
    for (const r of runRange) {
      const c = await r.sql(column);
      out.sql.push(c.sql);
      out.params.push(...c.params);
    }
    return out;
  };
  const labels = new Map<number, { label: string; startedAt: string | null }>();
  const shown = (r: Row, run: number, previous: boolean): SearchRow => ({
    run,
    label: labels.get(run)?.label ?? '',
    startedAt: labels.get(run)?.startedAt ?? null,
    game: String(r.game),
    dialect: String(r.dialect),
    status: String(r.status),
    rule: r.rule === null ? null : String(r.rule),
    source: r.source === null ? null : String(r.source),
    turn: r.turn === null ? null : Number(r.turn),
    message: r.message === null ? null : String(r.message),
    previousStatus: previous && r.prev_status !== null ? String(r.prev_status) : null,
  });

  const range = await inRange('r.run');
  const runs = await store.all(`SELECT r.run, r.label, r.started_at FROM runs r WHERE r.outcome <> 'failed'${range.sql.map((s) => ` AND ${s}`).join('')} ORDER BY r.run`, range.params);
  for (const r of runs) labels.set(Number(r.run), { label: String(r.label), startedAt: r.started_at === null ? null : String(r.started_at) });
  const answer = (rows: SearchRow[]): SearchAnswer => ({ query, truncated: rows.length > limit, rows: rows.slice(0, limit) });
  if (runs.length === 0) return answer([]);

  if (changed) {
    const now = await inRange('t.run');
    const before = await inRange('t.prev_run');
    const rows = await store.all(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE t.present = 1 AND t.prev_status IS NOT NULL AND t.prev_status <> t.status${[...now.sql, ...before.sql, ...where].map((s) => ` AND ${s}`).join('')}
       ORDER BY t.run, t.line LIMIT ?`,
      [...now.params, ...before.params, ...params, limit + 1],
    );
    return answer(rows.map((r) => shown(r, Number(r.run), true)));
  }

  // Per-run rows. Runs in range that judged each dialect (a row shows only in a run of its dialect).
  const first = Number(runs[0].run);
  const last = Number(runs[runs.length - 1].run);
  const judged = new Map<number, Set<string>>();
  for (const d of await store.all('SELECT run, dialect FROM run_dialects WHERE run >= ? AND run <= ?', [first, last])) {
    if (!judged.has(Number(d.run))) judged.set(Number(d.run), new Set());
    judged.get(Number(d.run))!.add(String(d.dialect));
  }
  const cap = limit + 1;
  const out: SearchRow[] = [];
  const emit = (run: number, held: Held[]) => {
    const mine = held.filter((h) => judged.get(run)?.has(String(h.dialect))).sort((a, b) => Number(a.line) - Number(b.line));
    for (const h of mine) {
      if (out.length >= cap) return;
      out.push(shown(h, run, false));
    }
  };
  const filter = where.map((s) => ` AND ${s}`).join('');
  const asOf = (run: number, n: number, dialects?: string[]) =>
    store.all(
      // +t.run: walk the line index (in order, stopping at n), not the run index.
      `SELECT ${COLUMNS} FROM ${FROM} WHERE +t.run <= ? AND t.next_run > ? AND t.present = 1${filter}${dialects ? ` AND k.dialect IN (${dialects.map(() => '?').join(', ')})` : ''} ORDER BY t.line LIMIT ?`,
      [run, run, ...params, ...(dialects ?? []), n],
    );

  const start = await asOf(first, cap);
  if (start.length >= cap) {
    emit(first, start);
    if (out.length >= cap || start.every((h) => judged.get(first)?.has(String(h.dialect)))) return answer(out);
    // Many rows hold at the start under dialects its run did not judge: run by run.
    out.length = 0;
    for (const r of runs) {
      const run = Number(r.run);
      const dialects = [...(judged.get(run) ?? [])];
      if (dialects.length) for (const h of await asOf(run, cap - out.length, dialects)) out.push(shown(h, run, false));
      if (out.length >= cap) break;
    }
    return answer(out);
  }
  // Few rows hold at the start: keep them, and sweep the later runs' new rows in (run, line) order.
  let active: Held[] = start;
  emit(first, active);
  let after = { run: first, line: OPEN };
  let pending: Held[] = [];
  let p = 0;
  let exhausted = false;
  const PAGE = 5_000;
  const more = async () => {
    pending = await store.all(
      // After (run, line) in the (run, line) index's order: no sort, the page ends the scan.
      `SELECT ${COLUMNS} FROM ${FROM} WHERE t.run >= ? AND t.run <= ? AND (t.run > ? OR t.line > ?) AND t.present = 1${filter} ORDER BY t.run, t.line LIMIT ?`,
      [after.run, last, after.run, after.line, ...params, PAGE],
    );
    p = 0;
    exhausted = pending.length < PAGE;
    const end = pending.at(-1);
    if (end) after = { run: Number(end.run), line: Number(end.line) };
  };
  await more();
  const nextRuns = runs.map((r) => Number(r.run)).filter((r) => r > first);
  let i = 0;
  while (out.length < cap) {
    // The next run that shows rows or brings new ones.
    const run = Math.min(p < pending.length ? Number(pending[p].run) : Infinity, i < nextRuns.length ? nextRuns[i] : Infinity);
    if (run === Infinity) break;
    active = active.filter((h) => Number(h.next_run) > run);
    while (p < pending.length && Number(pending[p].run) === run) {
      active.push(pending[p++]);
      if (p === pending.length && !exhausted) await more();
    }
    if (i < nextRuns.length && nextRuns[i] === run) {
      i++;
      emit(run, active);
    }
  }
  return answer(out);
}
