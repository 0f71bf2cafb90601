/**
 * The modules a worker thread runs, by name: a task module (its default export takes one
 * task) and a judge module (exporting `createJudge(params)`). Names, not file URLs, cross
 * the thread boundary, so the same name works from the compiled files (dist/) and from the
 * one-file bundles (dist/bundle/), where every module sits at another path. Anything else
 * (a test's own module) travels as a URL and is imported as it is.
 */
export const TASK_MODULES = {
  /** The run pipeline's batches (run/worker.ts). */
  batch: () => import('./run/worker.js'),
  /** `generate`'s batches. */
  generate: () => import('./generate/worker.js'),
} satisfies Record<string, () => Promise<{ default: (task: never) => unknown }>>;

export const JUDGE_MODULES = {
  replay: () => import('./replay/judge-record.js'),
  infer: () => import('./infer/judge.js'),
} satisfies Record<string, () => Promise<{ createJudge: (params: never) => unknown }>>;

export type TaskModuleName = keyof typeof TASK_MODULES;
export type JudgeModuleName = keyof typeof JUDGE_MODULES;

/** A task module: a built-in one by name, or an ES module's URL. */
export type TaskModule = TaskModuleName | URL;
/** A judge module: a built-in one by name, or an ES module's URL. */
export type JudgeModule = JudgeModuleName | URL;

/** How a module travels to a worker (workerData, JudgeRef): its name, or its URL's href. */
export const moduleRef = (m: string | URL): string => (typeof m === 'string' ? m : m.href);

/** Imports the module `ref` names: a built-in one from `table`, anything else as a URL. */
export function importModule<T>(table: Record<string, () => Promise<unknown>>, ref: string): Promise<T> {
  const builtIn = Object.hasOwn(table, ref) ? table[ref] : undefined;
  return (builtIn ? builtIn() : import(ref)) as Promise<T>;
}
