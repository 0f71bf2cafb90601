import type { SqlValue, Store } from '../store-types.js';

export interface TrendPoint {
  run: number;
  label: string;
  startedAt: string | null;
  conforming: number;
  diverging: number;
  unreadable: number;
}

export interface RuleTrendPoint {
  run: number;
  label: string;
  startedAt: string | null;
  games: number;
}

export interface Trend {
  /** Per dialect, one point per recorded run that judged it (oldest first). */
  dialects: { dialect: string; points: TrendPoint[] }[];
  /** Per rule id and dialect, the games whose first finding it was, one point per run of that dialect (0 when none). */
  rules: { rule: string; dialect: string; points: RuleTrendPoint[] }[];
}

export interface TrendFilter {
  dialect?: string;
  rule?: string;
  /** The newest N runs only. */
  last?: number;
}

/** Conforming / diverging / unreadable per run and dialect, and per rule id: from the per-run counts, never the result rows. */
export async function trend(store: Store, f: TrendFilter = {}): Promise<Trend> {
  const params: SqlValue[] = [];
  let where = "r.outcome <> 'failed'";
  if (f.dialect) {
    where += ' AND d.dialect = ?';
    params.push(f.dialect);
  }
  if (f.last) {
    where += ' AND r.run > (SELECT coalesce(max(run), 0) FROM runs) - ?';
    params.push(f.last);
  }
  const rows = await store.all(
    `SELECT d.run, r.label, r.started_at, d.dialect, d.conforming, d.diverging, d.unreadable FROM run_dialects d JOIN runs r ON r.run = d.run WHERE ${where} ORDER BY d.dialect, d.run`,
    params,
  );
  const dialects = new Map<string, TrendPoint[]>();
  for (const r of rows) {
    const d = String(r.dialect);
    if (!dialects.has(d)) dialects.set(d, []);
    dialects.get(d)!.push({ run: Number(r.run), label: String(r.label), startedAt: r.started_at === null ? null : String(r.started_at), conforming: Number(r.conforming), diverging: Number(r.diverging), unreadable: Number(r.unreadable) });
  }
  const ruleParams: SqlValue[] = [...params];
  let ruleWhere = where;
  if (f.rule) {
    ruleWhere += ' AND u.rule = ?';
    ruleParams.push(f.rule);
  }
  const counted = await store.all(`SELECT u.run, u.dialect, u.rule, u.games FROM run_rules u JOIN runs r ON r.run = u.run JOIN run_dialects d ON d.run = u.run AND d.dialect = u.dialect WHERE ${ruleWhere} ORDER BY u.rule, u.dialect, u.run`, ruleParams);
  const games = new Map<string, Map<number, number>>();
  for (const r of counted) {
    const key = `${String(r.rule)}\u0000${String(r.dialect)}`;
    if (!games.has(key)) games.set(key, new Map());
    games.get(key)!.set(Number(r.run), Number(r.games));
  }
  const rules = [...games.entries()].map(([key, byRun]) => {
    const [rule, dialect] = key.split('\u0000');
    const points = (dialects.get(dialect) ?? []).map((p) => ({ run: p.run, label: p.label, startedAt: p.startedAt, games: byRun.get(p.run) ?? 0 }));
    return { rule, dialect, points };
  });
  return { dialects: [...dialects.entries()].map(([dialect, points]) => ({ dialect, points })), rules };
}
