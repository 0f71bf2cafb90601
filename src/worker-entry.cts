/**
 * The entry point of every worker thread (see worker-pool.ts). Piscina loads it with
 * require(); in Node 20, require() of an ES module that is still loading when the pool
 * is destroyed aborts the whole process (a fatal V8 error, seen on short runs). This file
 * is CommonJS, so require() is plain, and the module named in `workerData` arrives by an
 * ordinary dynamic import at the first task.
 */
import { workerData } from 'node:worker_threads';

type Run = (task: unknown) => unknown;
let run: Run | null = null;

module.exports = async function task(input: unknown): Promise<unknown> {
  run ??= ((await import((workerData as { module: string }).module)) as { default: Run }).default;
  return run(input);
};
