/**
 * The entry point of every worker thread (see worker-pool.ts). Piscina loads it with
 * require(); in Node 20, require() of an ES module that is still loading when the pool
 * is destroyed aborts the whole process (a fatal V8 error, seen on short runs). This file
 * is CommonJS, so require() is plain, and the task module named in `workerData` (and the
 * judges to preload) arrive by ordinary dynamic imports, by name (worker-modules.ts, judge-modules.ts) or URL,
 * started as the thread starts so that they load while the pool's owner gets its first task
 * ready. The build also bundles this file, with every module it can reach, into the one file
 * a worker thread of the installed tool loads (dist/bundle/worker-entry.cjs).
 */
import { workerData } from 'node:worker_threads';

type Run = (task: unknown) => unknown;
const data = workerData as { module: string; preload?: string[] };
const pool = import('./worker-pool.js');
const loading = Promise.all([pool, import('./worker-modules.js')]).then(([p, m]) => p.importModule<{ default: Run }>(m.TASK_MODULES, data.module));
// A failure is met by the first task (below); a preloaded module's by whoever imports it.
loading.catch(() => {});
const judges = Promise.all([pool, import('./judge-modules.js')]);
for (const name of data.preload ?? []) judges.then(([p, j]) => p.importModule(j.JUDGE_MODULES, name)).catch(() => {});
let run: Run | null = null;

// Set only while the build makes this bundle's code cache (bundle-loader.cts).
const writeCodeCache = (globalThis as Record<symbol, (() => void) | undefined>)[Symbol.for('dice-dialects.write-code-cache')];

module.exports = async function task(input: unknown): Promise<unknown> {
  run ??= (await loading).default;
  const result = await run(input);
  writeCodeCache?.();
  return result;
};
