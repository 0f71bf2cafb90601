import type { Row, SqlValue, Store } from '../store-types.js';
import { rangeCondition } from './run-ref.js';

export interface RunsFilter {
  dialect?: string;
  source?: string;
  since?: string;
  until?: string;
  toolVersion?: string;
  limit?: number;
}

export interface RunDialect {
  dialect: string;
  file: string | null;
  sha256: string | null;
  overrides: string | null;
  lines: number;
  conforming: number;
  diverging: number;
  unreadable: number;
}

export interface RunEntry {
  run: number;
  runKey: string;
  label: string;
  folder: string | null;
  kind: string;
  outcome: string;
  failure: string | null;
  promoted: boolean | null;
  toolVersion: string | null;
  startedAt: string | null;
  durationMs: number | null;
  recordedAt: string;
  sharded: boolean;
  sources: { source: string; sha256: string | null }[];
  lines: number;
  conforming: number;
  diverging: number;
  unreadable: number;
  dialects: RunDialect[];
}

const num = (v: SqlValue): number => Number(v ?? 0);

export function runEntry(r: Row, dialects: RunDialect[]): RunEntry {
  return {
    run: num(r.run),
    runKey: String(r.run_key),
    label: String(r.label),
    folder: r.folder === null ? null : String(r.folder),
    kind: String(r.kind),
    outcome: String(r.outcome),
    failure: r.failure === null ? null : String(r.failure),
    promoted: r.promoted === null ? null : num(r.promoted) === 1,
    toolVersion: r.tool_version === null ? null : String(r.tool_version),
    startedAt: r.started_at === null ? null : String(r.started_at),
    durationMs: r.duration_ms === null ? null : num(r.duration_ms),
    recordedAt: String(r.recorded_at),
    sharded: num(r.sharded) === 1,
    sources: JSON.parse(String(r.sources)),
    lines: num(r.lines),
    conforming: num(r.conforming),
    diverging: num(r.diverging),
    unreadable: num(r.unreadable),
    dialects,
  };
}

const RUN_COLUMNS = 'r.run, r.run_key, r.label, r.folder, r.kind, r.outcome, r.failure, r.promoted, r.tool_version, r.started_at, r.duration_ms, r.recorded_at, r.sharded, r.sources, r.lines, r.conforming, r.diverging, r.unreadable';

async function dialectsOf(store: Store, runs: number[]): Promise<Map<number, RunDialect[]>> {
  const out = new Map<number, RunDialect[]>();
  if (runs.length === 0) return out;
  const rows = await store.all(
    `SELECT run, dialect, file, sha256, overrides, lines, conforming, diverging, unreadable FROM run_dialects WHERE run >= ? AND run <= ? ORDER BY run, dialect`,
    [Math.min(...runs), Math.max(...runs)],
  );
  for (const d of rows) {
    const run = num(d.run);
    if (!out.has(run)) out.set(run, []);
    out.get(run)!.push({
      dialect: String(d.dialect),
      file: d.file === null ? null : String(d.file),
      sha256: d.sha256 === null ? null : String(d.sha256),
      overrides: d.overrides === null ? null : String(d.overrides),
      lines: num(d.lines),
      conforming: num(d.conforming),
      diverging: num(d.diverging),
      unreadable: num(d.unreadable),
    });
  }
  return out;
}

/** Runs, newest first, with their provenance; filters by dialect, source, date or run range and tool version. */
export async function listRuns(store: Store, f: RunsFilter = {}): Promise<RunEntry[]> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (f.dialect) {
    where.push('EXISTS (SELECT 1 FROM run_dialects d WHERE d.run = r.run AND d.dialect = ?)');
    params.push(f.dialect);
  }
  if (f.source) {
    where.push("r.sources LIKE ? ESCAPE '\\'");
    params.push(`%${f.source.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (f.toolVersion) {
    where.push('r.tool_version = ?');
    params.push(f.toolVersion);
  }
  for (const which of ['since', 'until'] as const) {
    const v = f[which];
    if (v === undefined) continue;
    const c = await rangeCondition(store, which, v);
    where.push(c.sql);
    params.push(...c.params);
  }
  const rows = await store.all(
    `SELECT ${RUN_COLUMNS} FROM runs r ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r.run DESC LIMIT ?`,
    [...params, f.limit ?? 1000],
  );
  const dialects = await dialectsOf(store, rows.map((r) => num(r.run)));
  return rows.map((r) => runEntry(r, dialects.get(num(r.run)) ?? []));
}

/** One run by number, with its provenance and dice statistics. */
export async function getRun(store: Store, run: number): Promise<RunEntry & { options: unknown; dice: unknown }> {
  const rows = await store.all(`SELECT ${RUN_COLUMNS}, r.options, r.dice FROM runs r WHERE r.run = ?`, [run]);
  const r = rows[0];
  const dialects = await dialectsOf(store, [run]);
  return { ...runEntry(r, dialects.get(run) ?? []), options: JSON.parse(String(r.options)), dice: r.dice === null ? null : JSON.parse(String(r.dice)) };
}
