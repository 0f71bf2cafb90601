/** Reports of a replay run: summary, renderers (Markdown, HTML, JUnit), the atomic run folder and run diffs. */
export { SummaryBuilder } from './summary.js';
export {
  DiceStats,
  Example,
  Matrix,
  MatrixCell,
  Rate,
  RuleCounts,
  RuleEntry,
  RunInfo,
  StatusCounts,
  Summary,
} from './summary-schema.js';
export { type DiceCounts, DiceStatsAccumulator, EXPECTED_OPENING_PASS_RATE, EXPECTED_PASS_RATE, expectedDoublesRate, type DiceTurn } from './dice-stats.js';
export { chiSquareStatistic, chiSquareSurvival } from './chi-square.js';
export { renderMarkdown } from './render-md.js';
export { renderHtml } from './render-html.js';
export { renderJunit } from './render-junit.js';
export { boardSvg } from './board-svg.js';
export { openRunDir, RUN_FILES, type RunDir } from './run-dir.js';
export { anythingBroke, classify, diffRuns, renderDiffMarkdown, type DiffEntry, type DiffSide, type RunDiff } from './diff.js';
export { readResults, readResultsSync, ResultsFileError } from './results-file.js';
export { canonicalJson } from './sorted.js';
