import type { GameResultLine } from '../replay/result.js';

/** The classes of a run diff, and how a record's two verdicts are classed. */

type Status = GameResultLine['status'];

/** A record's verdict in one run: its status and the rule of its first finding. */
export interface DiffSide {
  status: Status;
  rule: string | null;
  index: number;
  /** A folded line (repeated unreadable records written once): how many records it stands for. */
  repeats?: number;
  /** A record its run did not write one by one: the id of the folded line that counts it. */
  folded?: string;
}

export interface DiffEntry {
  id: string;
  dialect: string;
  source: string | null;
  /** Verdict in run A (null for `new`). */
  before: DiffSide | null;
  /** Verdict in run B (null for `gone`). */
  after: DiffSide | null;
}

export interface RunDiff {
  fixed: DiffEntry[];
  broken: DiffEntry[];
  reclassified: DiffEntry[];
  new: DiffEntry[];
  gone: DiffEntry[];
  /** Records that now show a recording fault hiding their play (status faulty): the record's problem, never "broken". */
  faulted: DiffEntry[];
  /** Repaired (normalised) and metadata recording faults whose record count changed, from the runs' summaries. */
  repairedFaults: Array<{ code: string; before: number; after: number }>;
  unchanged: number;
}

export type DiffCategory = 'fixed' | 'broken' | 'reclassified' | 'faulted' | 'unchanged';

/**
 * conforming → diverging/unreadable: broken; diverging/unreadable → conforming: fixed.
 * A readable record becoming unreadable is broken too (the reader regressed). Two
 * non-conforming verdicts with different first rules (unreadable → diverging
 * included) are reclassified.
 */
export function classify(a: DiffSide, b: DiffSide): DiffCategory {
  // A recording fault is the record's problem: its own class, whatever the verdict before.
  if (b.status === 'faulty' && a.status !== 'faulty') return 'faulted';
  if (a.status === 'conforming') return b.status === 'conforming' ? 'unchanged' : 'broken';
  if (b.status === 'conforming') return 'fixed';
  if (b.status === 'unreadable' && a.status !== 'unreadable') return 'broken';
  return a.rule === b.rule && a.status === b.status ? 'unchanged' : 'reclassified';
}

