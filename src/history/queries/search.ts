import type { SqlValue, Store } from '../store-types.js';
import { rangeCondition } from './run-ref.js';
import { parseSearch } from './search-grammar.js';

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

/**
 * Result rows matching a query, oldest run first. Key terms (dialect, game, source) and the
 * run range narrow the rows before `changed` compares each row with the same game's row in
 * the run before; rule and status then pick among them.
 */
export async function search(store: Store, query: string, opts: { limit?: number } = {}): Promise<SearchAnswer> {
  const terms = parseSearch(query);
  const limit = opts.limit ?? 500;
  const inner: string[] = ["r.outcome <> 'failed'"];
  const innerParams: SqlValue[] = [];
  const outer: string[] = [];
  const outerParams: SqlValue[] = [];
  let changed = false;
  for (const t of terms) {
    if (t.key === 'changed') {
      changed = true;
      continue;
    }
    if (t.key === 'since' || t.key === 'until') {
      const c = await rangeCondition(store, t.key, t.value, 'x');
      inner.push(c.sql);
      innerParams.push(...c.params);
      continue;
    }
    const column = { dialect: 'x.dialect', game: 'x.game', source: 'x.source', rule: 'rule', status: 'status' }[t.key];
    const m = match(column, t.value);
    if (t.key === 'rule' || t.key === 'status') {
      outer.push(m.sql);
      outerParams.push(...m.params);
    } else {
      inner.push(m.sql);
      innerParams.push(...m.params);
    }
  }
  const previous = changed ? 'lag(x.status) OVER (PARTITION BY x.game, x.dialect ORDER BY x.run, x.line)' : 'NULL';
  if (changed) outer.push('previous_status IS NOT NULL AND previous_status <> status');
  const sql = `SELECT * FROM (
      SELECT x.run, x.line, r.label, r.started_at, x.game, x.dialect, x.status, x.rule, x.source, x.turn, x.message, ${previous} AS previous_status
      FROM results x JOIN runs r ON r.run = x.run WHERE ${inner.join(' AND ')}) t
    ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''} ORDER BY run, line LIMIT ?`;
  const rows = await store.all(sql, [...innerParams, ...outerParams, limit + 1]);
  return {
    query,
    truncated: rows.length > limit,
    rows: rows.slice(0, limit).map((r) => ({
      run: Number(r.run),
      label: String(r.label),
      startedAt: r.started_at === null ? null : String(r.started_at),
      game: String(r.game),
      dialect: String(r.dialect),
      status: String(r.status),
      rule: r.rule === null ? null : String(r.rule),
      source: r.source === null ? null : String(r.source),
      turn: r.turn === null ? null : Number(r.turn),
      message: r.message === null ? null : String(r.message),
      previousStatus: r.previous_status === null ? null : String(r.previous_status),
    })),
  };
}
