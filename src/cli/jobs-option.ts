import { availableParallelism } from 'node:os';
import { UsageError } from './usage-error.js';

/**
 * `--jobs N` as the commands that run threads take it: a whole number from 1 (else a usage
 * error), and a warning when it is above the cores, where each further thread costs memory
 * (its own heap) and no speed.
 */
export function checkJobs(jobs: number | undefined, force = false): void {
  if (jobs === undefined) {
    if (force) throw new UsageError('--force-jobs starts the threads --jobs N asks for: give --jobs N too');
    return;
  }
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs must be a whole number ≥ 1');
  const cores = availableParallelism();
  if (jobs > cores) process.stderr.write(`dice-dialects: warning: --jobs ${jobs} is more than the ${cores} core${cores === 1 ? '' : 's'} here: each thread above them costs memory and no speed\n`);
}

/** `--jobs N`, as replay and infer describe it. */
export const jobsOption = {
  type: 'number',
  describe: 'Threads that judge, at most: this one and N − 1 workers (default: all cores; 1 = this thread alone); one for an input too small to pay for a worker',
} as const;

/** `--force-jobs`: the threads `--jobs N` asks for, whatever the input's size. */
export const forceJobsOption = {
  type: 'boolean',
  default: false,
  describe: 'Start every thread --jobs asks for, even for an input too small to pay for a worker (to measure or test worker threads)',
} as const;
