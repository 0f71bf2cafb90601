import type { Summary } from './summary-schema.js';

/**
 * What a run found, as every report heads it: the worst there is. A run that read no record
 * says so first: it checked nothing, which is never a pass.
 */
export type RunVerdict = 'nothing-checked' | 'divergences' | 'unreadable' | 'faults' | 'conforms';

export function runVerdict(t: Summary['totals']): RunVerdict {
  if (t.lines === 0) return 'nothing-checked';
  if (t.diverging > 0) return 'divergences';
  if (t.unreadable > 0) return 'unreadable';
  if (t.faulty > 0) return 'faults';
  return 'conforms';
}

/** The verdict's words: the part a report stresses, then the rest. */
export const VERDICT_WORDS: Record<RunVerdict, { head: string; tail: string }> = {
  'nothing-checked': { head: 'Nothing was checked', tail: ': the sources held no record.' },
  divergences: { head: 'Divergences found.', tail: '' },
  unreadable: { head: 'Unreadable records found', tail: ' (no rule divergence).' },
  faults: { head: 'Recording faults found', tail: ' (no rule divergence).' },
  conforms: { head: 'Every record conforms.', tail: '' },
};

/** A pass is a run that read records and found every one conforming, or only repaired recording faults. */
export const isGood = (v: RunVerdict): boolean => v === 'conforms' || v === 'faults';
