/**
 * The entry point of every worker thread (see worker-pool.ts). Piscina loads it with
 * require(); in Node 20, require() of an ES module that is still loading when the pool
 * is destroyed aborts the whole process (a fatal V8 error, seen on short runs). This file
 * is CommonJS, so require() is plain, and the module named in `workerData` (and the ones
 * to preload, e.g. the judge) arrive by ordinary dynamic imports, started as the thread
 * starts so that they load while the pool's owner gets its first task ready.
 */
import { workerData } from 'node:worker_threads';

type Run = (task: unknown) => unknown;
const data = workerData as { module: string; preload?: string[] };
const loading = import(data.module) as Promise<{ default: Run }>;
// A failure is met by the first task (below); a preloaded module's by whoever imports it.
loading.catch(() => {});
for (const m of data.preload ?? []) import(m).catch(() => {});
let run: Run | null = null;

module.exports = async function task(input: unknown): Promise<unknown> {
  run ??= (await loading).default;
  return run(input);
};
