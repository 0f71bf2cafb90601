import { diffLines, type DiffInput, type RunDiff } from '../../report/diff.js';
import type { Store } from '../store-types.js';

async function* linesOf(store: Store, run: number): AsyncGenerator<DiffInput> {
  // In pages of the (run, line) index: a run's rows are never all in memory as SQL rows.
  const PAGE = 20_000;
  for (let from = 0; ; from += PAGE) {
    const rows = await store.all('SELECT game, dialect, source, status, rule, idx FROM results WHERE run = ? AND line > ? AND line <= ? ORDER BY line', [run, from, from + PAGE]);
    for (const r of rows)
      yield { id: String(r.game), dialect: String(r.dialect), source: r.source === null ? null : String(r.source), status: r.status as DiffInput['status'], rule: r.rule === null ? null : String(r.rule), index: Number(r.idx) };
    // A run's lines are numbered 1…N without gaps: a short page is the last.
    if (rows.length < PAGE) return;
  }
}

/** Any two recorded runs, in the classes of `diff` (the same pairing code as `diff` on the two folders). */
export function diffRecorded(store: Store, runA: number, runB: number): Promise<RunDiff> {
  return diffLines(linesOf(store, runA), linesOf(store, runB));
}
