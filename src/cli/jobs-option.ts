import { availableParallelism } from 'node:os';
import { UsageError } from './usage-error.js';

/**
 * `--jobs N` as the commands that run threads take it: a whole number from 1 (else a usage
 * error), and a warning when it is above the cores, where each further thread costs memory
 * (its own heap) and no speed.
 */
export function checkJobs(jobs: number | undefined): void {
  if (jobs === undefined) return;
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs must be a whole number ≥ 1');
  const cores = availableParallelism();
  if (jobs > cores) process.stderr.write(`dice-dialects: warning: --jobs ${jobs} is more than the ${cores} core${cores === 1 ? '' : 's'} here: each thread above them costs memory and no speed\n`);
}
