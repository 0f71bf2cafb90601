import { JUDGE_MODULES } from './judge-modules.js';
import { importModule } from './worker-pool.js';

/**
 * The thread root: the modules a worker thread runs, by name. A task module's default export
 * takes one task. Names, not file URLs, cross the thread boundary, so the same name works from
 * the compiled files (dist/) and from the one-file bundles (dist/bundle/), where every module
 * sits at another path. Anything else (a test's own module) travels as a URL and is imported
 * as it is. This table sits above every task and judge: nothing below it imports it, and the
 * run's batch task is handed the judge table here rather than reaching up for it.
 */
export const TASK_MODULES = {
  /** The run pipeline's batches (run/worker.ts), judged by the judges of judge-modules.ts. */
  batch: () => import('./run/worker.js').then((m) => ({ default: m.batchRunner((ref) => importModule(JUDGE_MODULES, ref)) })),
  /** `generate`'s batches. */
  generate: () => import('./generate/worker.js'),
} satisfies Record<string, () => Promise<{ default: (task: never) => unknown }>>;

export type TaskModuleName = keyof typeof TASK_MODULES;
