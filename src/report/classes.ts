import { compareStrings } from './sorted.js';
import type { Example, RuleEntry, Summary } from './summary-schema.js';

/**
 * Divergence classes as every renderer lists them: one per rule id, in id order (so
 * two reports diff line by line), each with its counts and its examples per dialect.
 */
export interface DivergenceClass {
  rule: string;
  /** `record.*` ids are notation problems (unreadable records), the rest rule divergences. */
  kind: 'unreadable' | 'divergence';
  counts: RuleEntry;
  examples: Example[];
}

export function divergenceClasses(summary: Summary): DivergenceClass[] {
  const order = new Map(summary.dialects.map((d, i) => [d, i]));
  return Object.keys(summary.byRule)
    .sort(compareStrings)
    .map((rule) => ({
      rule,
      kind: rule.startsWith('record.') ? 'unreadable' : 'divergence',
      counts: summary.byRule[rule],
      examples: summary.examples
        .filter((e) => e.rule === rule)
        .sort((a, b) => (order.get(a.dialect) ?? 0) - (order.get(b.dialect) ?? 0)),
    }));
}

/** Label for a corpus in the matrix (records without a source still need a row). */
export function sourceLabel(source: string | null): string {
  return source ?? '(no source)';
}
