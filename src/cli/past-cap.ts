import { findingsPastCap, moreFindingsText } from '../report/format.js';
import type { Summary } from '../report/summary-schema.js';

/**
 * The end of the closing line of `replay` and `merge` when games had findings past the cap
 * (MAX_FINDINGS): the findings kept, then the words of the reports and junit. Empty
 * otherwise, so the line of a run without such a game is as it always was.
 */
export function pastCapText(s: Pick<Summary, 'totals' | 'byRule'>): string {
  const more = findingsPastCap(s);
  return more > 0 ? `; ${(s.totals.findings - more).toLocaleString('en-US')} findings ${moreFindingsText(more)}` : '';
}
