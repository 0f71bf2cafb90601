export { ConformanceCase, CaseFile, Expectation } from './case-schema.js';
export { diePerft } from './die-perft.js';
export { answerCase, compare, summarise, type CaseAnswer, type CaseStatus } from './run-case.js';
export { buildMatrix, loadCaseFiles, renderMatrixMarkdown, runCases, type CaseRun, type DialectResolver, type Matrix } from './suite.js';
export { dialectResolver } from './resolver.js';
