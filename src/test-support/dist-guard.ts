import { fileURLToPath } from 'node:url';
import { IN_CI } from './binaries.js';
import { distProblem } from './dist-state.js';

/**
 * vitest globalSetup: many tests run the built command line (dist/). When dist/ is missing
 * or older than the sources, say so in one line before the run; under CI=true fail the run.
 */
export default function setup(): void {
  // A run started by a test of the suite: the outer run has checked (and said) it.
  if (process.env.DICE_DIALECTS_DIST_CHECKED === '1') return;
  process.env.DICE_DIALECTS_DIST_CHECKED = '1';
  const problem = distProblem(fileURLToPath(new URL('../../', import.meta.url)));
  if (problem === null) return;
  if (IN_CI) throw new Error(`${problem} (CI=true)`);
  console.warn(`warning: ${problem}; the tests that run the built command line test the old build`);
}
