/** Reports of a replay run: the summary's shape, renderers (Markdown, HTML, JUnit), the atomic run folder and run diffs. */
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
export { renderMarkdown } from './render-md.js';
export { renderHtml } from './render-html.js';
export { renderJunit } from './render-junit.js';
export { anythingBroke, brokenReclassified, classify, configChanges, type RunConfig, diffLines, diffRuns, renderDiffMarkdown, type DiffEntry, type DiffInput, type DiffSide, type RunDiff } from './diff.js';
export { entryRecords, recordsIn } from './diff-folded.js';
export { readResults, readResultsSync, ResultsFileError } from './results-file.js';
export { canonicalJson } from './sorted.js';
