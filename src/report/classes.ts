import { compareStrings } from './sorted.js';
import type { Example, RuleEntry, Summary } from './summary-schema.js';

/**
 * As the replayer counts the lines: a registered rule id is a finding of judging (the
 * game diverges, `record.fen-after-mismatch` included); a recording fault (the registry marks
 * it) is the record's own problem, never the dialect's; a reader's code is an unreadable record.
 */
export type RuleKind = 'unreadable' | 'divergence' | 'recording-fault';

/**
 * The kind of each rule id of a summary (the keys of `byRule`), as data the run hands the
 * renderers (src/run/rule-kinds.ts reads the rules' registry): the report knows no rules.
 * An id it does not name is a reader's code.
 */
export type RuleKinds = Readonly<Record<string, RuleKind>>;

/**
 * Divergence classes as every renderer lists them: one per rule id, in id order (so
 * two reports diff line by line), each with its counts and its examples per dialect.
 */
export interface DivergenceClass {
  rule: string;
  kind: RuleKind;
  counts: RuleEntry;
  examples: Example[];
}

export function divergenceClasses(summary: Summary, kinds: RuleKinds): DivergenceClass[] {
  const order = new Map(summary.dialects.map((d, i) => [d, i]));
  return Object.keys(summary.byRule)
    .sort(compareStrings)
    .map((rule) => ({
      rule,
      kind: Object.prototype.hasOwnProperty.call(kinds, rule) ? kinds[rule] : 'unreadable',
      counts: summary.byRule[rule],
      examples: summary.examples
        .filter((e) => e.rule === rule)
        .sort((a, b) => (order.get(a.dialect) ?? 0) - (order.get(b.dialect) ?? 0)),
    }));
}

/** What a class is, in words for its section. */
export const classKindText = (kind: DivergenceClass['kind']): string =>
  kind === 'unreadable' ? 'Unreadable records' : kind === 'recording-fault' ? "Recording fault (the record's problem, not the dialect's)" : 'Rule divergence';

/** A matrix cell in words: the conforming share, then diverging (✗), unreadable (?) and faulty (⚠) counts. */
export function cellText(c: { conforming: number; diverging: number; unreadable: number; faulty: number }, ratio: (n: number, of: number) => string): string {
  const n = c.conforming + c.diverging + c.unreadable + c.faulty;
  if (n === 0) return '—';
  return `${ratio(c.conforming, n)}${c.diverging ? ` ✗${c.diverging}` : ''}${c.unreadable ? ` ?${c.unreadable}` : ''}${c.faulty ? ` ⚠${c.faulty}` : ''}`;
}

/** Label for a corpus in the matrix (records without a source still need a row). */
export function sourceLabel(source: string | null): string {
  return source ?? '(no source)';
}

/**
 * How many records and findings a class stands for, in words. A class only ever found
 * after an earlier divergence of the same game (--continue-after-divergence) has no
 * record of its own; it is said so, not "0 record(s)".
 */
export function classCountText(counts: { games: number; findings: number }, rule: string): string {
  if (counts.games === 0) return `${counts.findings} finding(s) of class ${rule}, each after an earlier divergence of its game (no game diverges first by it)`;
  return `${counts.games} record(s) of class ${rule} (${counts.findings} finding(s))`;
}

/**
 * A class's count under one dialect, for its "by dialect" line: its records, or, where no game
 * diverges first by it there, its findings (each after an earlier divergence), never "0".
 */
export const dialectCountText = (c: { games: number; findings: number }): string => (c.games > 0 ? String(c.games) : `${c.findings} finding(s) after an earlier divergence`);
