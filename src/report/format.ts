import { MAX_FINDINGS } from '../replay/result.js';
import type { Summary } from './summary-schema.js';
/**
 * Number formatting shared by the renderers. Fixed digits (never locale formatting)
 * so the reports are byte-identical across machines.
 */

export function pct(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)} %`;
}

export function ratio(count: number, of: number): string {
  return of > 0 ? `${count}/${of} (${pct(count / of)})` : `${count}/0`;
}

/** A p-value readable at both ends: 0.0500, 3.2e-7. */
export function pValue(p: number | null): string {
  if (p === null) return 'n/a';
  if (p === 0) return '< 1e-300';
  return p >= 0.001 ? p.toFixed(4) : p.toExponential(1);
}

export function fixed(x: number | null, digits = 2): string {
  return x === null ? 'n/a' : x.toFixed(digits);
}

/** Verdict on the face test: flagged when uniform dice would rarely look this uneven. */
export function faceVerdict(p: number | null, expectedEach: number | null): string {
  if (p === null || expectedEach === null) return 'no dice recorded';
  // Below about 5 expected per cell the chi-square approximation is not trustworthy.
  if (expectedEach < 5) return 'too few dice for a reliable test (under 5 expected per face)';
  return p < 0.01 ? 'unlikely under fair dice (p < 0.01): check the source' : 'consistent with fair dice';
}

export const FACE_LABELS = ['1 pawn', '2 knight', '3 bishop', '4 rook', '5 queen', '6 king'];

export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The findings of a game past the cap kept per game (MAX_FINDINGS), as a line of text: "and 48,211 more findings …". */
export const moreFindingsText = (more: number): string => `… and ${more.toLocaleString('en-US')} more finding${more === 1 ? '' : 's'} (at most ${MAX_FINDINGS.toLocaleString('en-US')} are kept a game; the rest are counted)`;

/**
 * The findings of a run past the cap, as its summary counts them: the totals count every
 * finding, `byRule` only those kept (a finding past the cap names no rule).
 */
export function findingsPastCap(s: Pick<Summary, 'totals' | 'byRule'>): number {
  let kept = 0;
  for (const rule in s.byRule) kept += s.byRule[rule].findings;
  return s.totals.findings - kept;
}
