/**
 * Findings kept per game and dialect. A game that diverges at every turn (under
 * --continue-after-divergence) would otherwise grow its line, and a worker's memory,
 * without bound; the findings past the cap are counted in `moreFindings`.
 */
export const MAX_FINDINGS = 1000;
