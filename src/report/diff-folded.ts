import { classify, type DiffEntry, type DiffSide, type RunDiff } from './diff-classify.js';

/**
 * A run writes the first few repeats of one unreadable kind in full and folds the rest into one
 * line with their count (`repeats`), without their ids. Paired by id alone, a fold is one
 * record "gone" or "new", and the records it counts are "new" or "gone" on the other side: a
 * reader fixed overnight looked broken, and a reader broken overnight hid behind --allow-gone.
 * Here the records one run wrote one by one are set against the other run's folds of the same
 * corpus and dialect (a fold of the same rule first), and classed as any pair is; what a fold
 * counts beyond them stays gone or new, with its count.
 */

/** How many records a diff entry stands for: a fold's count, else one. */
export const entryRecords = (e: DiffEntry): number => e.after?.repeats ?? e.before?.repeats ?? 1;

/** How many records a list of diff entries stands for. */
export const recordsIn = (entries: readonly DiffEntry[]): number => entries.reduce((n, e) => n + entryRecords(e), 0);

interface Pool {
  entry: DiffEntry;
  side: DiffSide;
  /** Its records not yet set against a record of the other run. */
  left: number;
}

const groupOf = (e: { source: string | null; dialect: string }): string => `${e.source}\u0000${e.dialect}`;

function pools(list: Array<{ entry: DiffEntry; side: DiffSide; count: number }>): Map<string, Pool[]> {
  const byGroup = new Map<string, Pool[]>();
  for (const { entry, side, count } of list) {
    if (count <= 0) continue;
    const g = groupOf(entry);
    const at = byGroup.get(g) ?? [];
    at.push({ entry, side, left: count });
    byGroup.set(g, at);
  }
  return byGroup;
}

/** The pool a record is counted in: one of its rule first, then any with records left. */
function take(byGroup: Map<string, Pool[]>, e: DiffEntry, rule: string | null): Pool | null {
  const list = byGroup.get(groupOf(e));
  if (!list) return null;
  const pool = list.find((p) => p.left > 0 && p.side.rule === rule) ?? list.find((p) => p.left > 0);
  if (!pool) return null;
  pool.left--;
  return pool;
}

/** The verdict of a record counted in a fold: the fold's, without its count, naming the fold. */
const inFold = (p: Pool): DiffSide => ({ status: p.side.status, rule: p.side.rule, index: p.side.index, folded: p.entry.id });

/** Places each record of `list` (its own verdict on side `own`) that the other run counted in one of `pools`; returns the others. */
function setAgainst(list: readonly DiffEntry[], own: 'before' | 'after', pools: Map<string, Pool[]>, place: (e: DiffEntry) => void): DiffEntry[] {
  const left: DiffEntry[] = [];
  for (const e of list) {
    const side = e[own]!;
    if (side.repeats !== undefined) continue;
    const pool = take(pools, e, side.rule);
    if (pool === null) left.push(e);
    else place(own === 'before' ? { ...e, after: inFold(pool) } : { ...e, before: inFold(pool) });
  }
  return left;
}

/**
 * Settles `out`'s folds in place: `paired` are the folds both runs wrote under one id
 * (classed by verdict; their counts may differ).
 */
export function settleFolded(out: RunDiff, paired: readonly DiffEntry[]): void {
  const goneFolds = out.gone.filter((e) => e.before?.repeats !== undefined);
  const newFolds = out.new.filter((e) => e.after?.repeats !== undefined);
  if (goneFolds.length === 0 && newFolds.length === 0 && paired.length === 0) return;
  const countOf = (s: DiffSide | null): number => s?.repeats ?? 1;
  const inA = pools([
    ...goneFolds.map((entry) => ({ entry, side: entry.before!, count: countOf(entry.before) })),
    ...paired.map((entry) => ({ entry, side: entry.before!, count: countOf(entry.before) - countOf(entry.after) })),
  ]);
  const inB = pools([
    ...newFolds.map((entry) => ({ entry, side: entry.after!, count: countOf(entry.after) })),
    ...paired.map((entry) => ({ entry, side: entry.after!, count: countOf(entry.after) - countOf(entry.before) })),
  ]);
  const place = (entry: DiffEntry): void => {
    const category = classify(entry.before!, entry.after!);
    if (category === 'unchanged') out.unchanged++;
    else out[category].push(entry);
  };
  // Records of A not in B that B counted in a fold, then records of B that A counted in one.
  const gone = setAgainst(out.gone, 'before', inB, place);
  const added = setAgainst(out.new, 'after', inA, place);
  // What a fold counts beyond them: gone (A's) or new (B's), with the count left.
  for (const list of inA.values()) for (const p of list) if (p.left > 0) gone.push({ ...p.entry, before: { ...p.side, repeats: p.left }, after: null });
  for (const list of inB.values()) for (const p of list) if (p.left > 0) added.push({ ...p.entry, before: null, after: { ...p.side, repeats: p.left } });
  out.gone = gone;
  out.new = added;
}
