import { classify, type DiffEntry, type DiffSide, type RunDiff } from './diff-classify.js';

/**
 * A run writes the first few repeats of one unreadable kind in full and folds the rest into one
 * line with their count (`repeats`), without their ids. A fold is therefore never paired by its
 * id (`SOURCE#repeated-N` numbers the kinds in the order they came, not what they hold): the
 * folds and the records that one run wrote one by one are set against the other run's folds of
 * the same corpus and dialect. Folds of the same rule first count as unchanged records, then
 * the records of the same rule, then any other; each record is classed as any pair is. What a
 * fold counts beyond them is gone or new, with its count.
 */

/** A folded line of one run: its id, corpus, dialect and verdict (with `repeats`). */
export interface Fold {
  id: string;
  dialect: string;
  source: string | null;
  side: DiffSide;
}

/** How many records a diff entry stands for: a fold's count, else one. */
export const entryRecords = (e: DiffEntry): number => e.after?.repeats ?? e.before?.repeats ?? 1;

/** How many records a list of diff entries stands for. */
export const recordsIn = (entries: readonly DiffEntry[]): number => entries.reduce((n, e) => n + entryRecords(e), 0);

interface Pool {
  fold: Fold;
  /** Its records not yet set against a record of the other run. */
  left: number;
}

const groupOf = (e: { source: string | null; dialect: string }): string => `${e.source}\u0000${e.dialect}`;

function pools(folds: readonly Fold[]): Map<string, Pool[]> {
  const byGroup = new Map<string, Pool[]>();
  for (const fold of folds) {
    const g = groupOf(fold);
    const at = byGroup.get(g) ?? [];
    at.push({ fold, left: fold.side.repeats ?? 1 });
    byGroup.set(g, at);
  }
  return byGroup;
}

/** The verdict of a record counted in a fold: the fold's, without its count, naming the fold. */
const inFold = (p: Pool): DiffSide => ({ status: p.fold.side.status, rule: p.fold.side.rule, index: p.fold.side.index, folded: p.fold.id });

/**
 * Places the records of `list` (their own verdict on side `own`) that the other run counted in
 * one of `byGroup`'s folds: with `sameRule`, only in a fold of their own rule. Returns the others.
 */
function setAgainst(list: readonly DiffEntry[], own: 'before' | 'after', byGroup: Map<string, Pool[]>, sameRule: boolean, place: (e: DiffEntry) => void): DiffEntry[] {
  const left: DiffEntry[] = [];
  for (const e of list) {
    const rule = e[own]!.rule;
    const pool = byGroup.get(groupOf(e))?.find((p) => p.left > 0 && (!sameRule || p.fold.side.rule === rule));
    if (pool === undefined) {
      left.push(e);
      continue;
    }
    pool.left--;
    place(own === 'before' ? { ...e, after: inFold(pool) } : { ...e, before: inFold(pool) });
  }
  return left;
}

/** Settles the two runs' folds into `out`, whose gone and new hold the records paired by id with none. */
export function settleFolded(out: RunDiff, foldsA: readonly Fold[], foldsB: readonly Fold[]): void {
  if (foldsA.length === 0 && foldsB.length === 0) return;
  const inA = pools(foldsA);
  const inB = pools(foldsB);
  // Folds of one rule in both runs: the records they both count are unchanged.
  for (const [group, listA] of inA) {
    for (const a of listA) {
      for (const b of inB.get(group) ?? []) {
        if (a.left === 0) break;
        if (b.fold.side.rule !== a.fold.side.rule || b.left === 0) continue;
        const same = Math.min(a.left, b.left);
        a.left -= same;
        b.left -= same;
        out.unchanged += same;
      }
    }
  }
  const place = (entry: DiffEntry): void => {
    const category = classify(entry.before!, entry.after!);
    if (category === 'unchanged') out.unchanged++;
    else out[category].push(entry);
  };
  // Records of A not in B that B counted in a fold, and of B that A counted in one: their own rule's fold first, across all of them.
  let gone = setAgainst(out.gone, 'before', inB, true, place);
  let added = setAgainst(out.new, 'after', inA, true, place);
  gone = setAgainst(gone, 'before', inB, false, place);
  added = setAgainst(added, 'after', inA, false, place);
  // What a fold counts beyond them: gone (A's) or new (B's), with the count left.
  for (const list of inA.values()) for (const p of list) if (p.left > 0) gone.push({ id: p.fold.id, dialect: p.fold.dialect, source: p.fold.source, before: { ...p.fold.side, repeats: p.left }, after: null });
  for (const list of inB.values()) for (const p of list) if (p.left > 0) added.push({ id: p.fold.id, dialect: p.fold.dialect, source: p.fold.source, before: null, after: { ...p.fold.side, repeats: p.left } });
  out.gone = gone;
  out.new = added;
}
