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

const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** "run n n …" items joined by commas (string_agg below), in run order: numbers only, so the separators are safe. */
function items(text: unknown): number[][] {
  return text === null || text === undefined || text === '' ? [] : String(text).split(',').map((item) => item.split(' ').map(Number)).sort((a, b) => a[0] - b[0]);
}

/**
 * Conforming / diverging / unreadable per run and dialect, and per rule id: from the per-run
 * counts, never the result rows. Each series comes back as one row (its points joined by
 * string_agg, which both backends have; in no order: an aggregate's ORDER BY costs SQLite more
 * than sorting here): a year of nightly runs is a few dozen rows, not tens of thousands
 * (reading a row out of the engine costs more than the row).
 */
export async function trend(store: Store, f: TrendFilter = {}): Promise<Trend> {
  const runParams: SqlValue[] = [];
  let runWhere = "r.outcome <> 'failed'";
  if (f.last) {
    runWhere += ' AND r.run > (SELECT coalesce(max(run), 0) FROM runs) - ?';
    runParams.push(f.last);
  }
  const runs = new Map<number, { label: string; startedAt: string | null }>();
  for (const r of await store.all(`SELECT r.run, r.label, r.started_at FROM runs r WHERE ${runWhere}`, runParams)) runs.set(Number(r.run), { label: String(r.label), startedAt: r.started_at === null ? null : String(r.started_at) });
  const inRuns = `run IN (SELECT r.run FROM runs r WHERE ${runWhere})`;
  const params: SqlValue[] = [...runParams];
  let where = inRuns;
  if (f.dialect) {
    where += ' AND dialect = ?';
    params.push(f.dialect);
  }
  const series = await store.all(
    `SELECT dialect, string_agg(CAST(run AS TEXT) || ' ' || CAST(conforming AS TEXT) || ' ' || CAST(diverging AS TEXT) || ' ' || CAST(unreadable AS TEXT), ',') AS points FROM run_dialects WHERE ${where} GROUP BY dialect`,
    params,
  );
  const dialects = new Map<string, TrendPoint[]>();
  for (const r of [...series].sort((a, b) => before(String(a.dialect), String(b.dialect)))) {
    const points: TrendPoint[] = [];
    for (const [run, conforming, diverging, unreadable] of items(r.points)) {
      const at = runs.get(run);
      if (at) points.push({ run, label: at.label, startedAt: at.startedAt, conforming, diverging, unreadable });
    }
    dialects.set(String(r.dialect), points);
  }
  const ruleParams: SqlValue[] = [...params];
  let ruleWhere = where;
  if (f.rule) {
    ruleWhere += ' AND rule = ?';
    ruleParams.push(f.rule);
  }
  const counted = await store.all(`SELECT rule, dialect, string_agg(CAST(run AS TEXT) || ' ' || CAST(games AS TEXT), ',') AS points FROM run_rules WHERE ${ruleWhere} GROUP BY rule, dialect`, ruleParams);
  const rules: Trend['rules'] = [];
  for (const r of [...counted].sort((a, b) => before(String(a.rule), String(b.rule)) || before(String(a.dialect), String(b.dialect)))) {
    const own = dialects.get(String(r.dialect));
    if (!own) continue;
    const byRun = new Map(items(r.points).map(([run, games]) => [run, games]));
    // A rule shows for a dialect when some run of the dialect's points counted it.
    if (!own.some((p) => byRun.has(p.run))) continue;
    rules.push({ rule: String(r.rule), dialect: String(r.dialect), points: own.map((p) => ({ run: p.run, label: p.label, startedAt: p.startedAt, games: byRun.get(p.run) ?? 0 })) });
  }
  return { dialects: [...dialects.entries()].map(([dialect, points]) => ({ dialect, points })), rules };
}
