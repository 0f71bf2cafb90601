/** The run pipeline the API's `runReplay` drives: the one module to point elsewhere when the pipeline moves. */
export { type Progress, type ReplayRunOptions, type ReplayRunResult, runReplay } from '../run/index.js';
