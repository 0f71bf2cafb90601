import type { FetchProgress } from './run.js';

/** The terminal's progress line. */
export function progressLine(p: FetchProgress): string {
  const secs = p.elapsedMs / 1000;
  const rate = secs > 0 ? p.requests / secs : 0;
  return `pages ${p.pages}  fetched ${p.fetched}  skipped ${p.skipped}  unavailable ${p.unavailable}  failed ${p.failed}  ${rate.toFixed(1)} req/s`;
}
