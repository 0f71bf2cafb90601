import { HistoryError } from '../errors.js';
import type { Store } from '../store-types.js';

/**
 * A run as users name it: its number (`7` or `#7`), `latest`, its label (the run folder's or
 * the night's name) or a prefix of its run key (6 characters or more).
 */
export async function resolveRun(store: Store, ref: string): Promise<number> {
  const text = ref.trim();
  const number = /^#?(\d+)$/.exec(text);
  let rows;
  if (number) rows = await store.all('SELECT run FROM runs WHERE run = ?', [Number(number[1])]);
  else if (text === 'latest') rows = await store.all('SELECT max(run) AS run FROM runs');
  else {
    rows = await store.all('SELECT run FROM runs WHERE label = ? ORDER BY run', [text]);
    if (rows.length === 0 && /^[0-9a-f]{6,}$/.test(text)) rows = await store.all('SELECT run FROM runs WHERE run_key LIKE ? ORDER BY run', [`${text}%`]);
    // A label many runs share (a folder name used every night) names none of them: a diff of the wrong run decides nothing.
    if (rows.length > 1) {
      const runs = rows.map((r) => Number(r.run));
      const listed = runs.length > 6 ? `${runs.slice(0, 3).join(', ')}, …, ${runs.slice(-2).join(', ')}` : runs.join(', ');
      throw new HistoryError('history-ambiguous-run', `"${ref}" names ${runs.length} runs (${listed}): name one by its number`);
    }
  }
  const run = rows[0]?.run;
  if (run === undefined || run === null) throw new HistoryError('history-unknown-run', `unknown run "${ref}" (a run number, latest, a label or a run key prefix; dice-dialects history runs lists them)`);
  return Number(run);
}

/** A date bound as text comparable with started_at (ISO 8601): a bare day covers all of it. */
export function dateBound(value: string, end: boolean): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    if (!end) return value;
    const next = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(next.getTime())) return null;
    next.setUTCDate(next.getUTCDate() + 1);
    return next.toISOString().slice(0, 10);
  }
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z?$/.test(value) && !Number.isNaN(new Date(value).getTime())) return value;
  return null;
}

/**
 * A since/until bound as SQL on a run number column (`column`): a date (the runs that started
 * in range) or a run by reference. Written on the run number, so that a query over the
 * transitions reads only the runs in range through the (run, line) index.
 */
export async function rangeCondition(store: Store, which: 'since' | 'until', value: string, column = 'r.run'): Promise<{ sql: string; params: (string | number)[] }> {
  const date = dateBound(value, which === 'until');
  if (date !== null) {
    const op = which === 'since' ? '>=' : /^\d{4}-\d{2}-\d{2}$/.test(value) ? '<' : '<=';
    return { sql: `${column} IN (SELECT run FROM runs WHERE started_at ${op} ?)`, params: [date] };
  }
  const run = await resolveRun(store, value);
  return { sql: which === 'since' ? `${column} >= ?` : `${column} <= ?`, params: [run] };
}
