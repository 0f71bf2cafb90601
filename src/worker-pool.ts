import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import type { Piscina } from 'piscina';

/**
 * A module a worker thread runs: a name the thread root's tables know (worker-modules.ts,
 * judge-modules.ts), or an ES module's URL. The pool knows no task or judge: it passes the reference on.
 */
export type ModuleRef = string | URL;

/** How a module travels to a worker (workerData, JudgeRef): its name, or its URL's href. */
export const moduleRef = (m: ModuleRef): string => (typeof m === 'string' ? m : m.href);

/** Imports the module `ref` names: a built-in one from `table`, anything else as a URL. */
export function importModule<T>(table: Record<string, () => Promise<unknown>>, ref: string): Promise<T> {
  const builtIn = Object.hasOwn(table, ref) ? table[ref] : undefined;
  return (builtIn ? builtIn() : import(ref)) as Promise<T>;
}

/** Piscina's CommonJS entry, loaded when a pool is first made: a run in this thread (--jobs 1) never loads it. */
const piscina = (): typeof import('piscina') => createRequire(import.meta.url)('piscina') as typeof import('piscina');

/**
 * A worker holds one part of a batch at a time (its input bytes and at most about RESULT_BUDGET
 * of results); small heaps keep the process flat (RSS) on endless corpora.
 * DICE_DIALECTS_WORKER_HEAP_MB sets the old-generation size instead (a machine with a tight or a generous memory budget; tests).
 */
export const workerLimits = (): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } => {
  const mb = Number(process.env.DICE_DIALECTS_WORKER_HEAP_MB);
  return { maxOldGenerationSizeMb: Number.isFinite(mb) && mb > 0 ? mb : 96, maxYoungGenerationSizeMb: 16 };
};

/** Tasks posted to a worker at once (see createPool). */
export const TASKS_PER_WORKER = 4;

/** The worker threads of a run judging on `jobs` threads: the run's own thread judges too. */
export const workerThreads = (jobs: number): number => Math.max(1, jobs - 1);

/** A pool's death (a worker dying between tasks): its error once it died, and the tasks waiting to hear of it. */
interface Death {
  error: unknown;
  died: boolean;
  waiting: Set<(error: unknown) => void>;
}
const deaths = new WeakMap<Piscina, Death>();

function createPool(module: ModuleRef, threads: number, resourceLimits: ResourceLimits | undefined, preload: ModuleRef[]): Piscina | null {
  // The entry sits beside this module: dist/worker-entry.cjs (compiled) or dist/bundle/worker-entry.cjs
  // (the bundles: it loads the worker bundle with its code cache); run from the sources (tests), there
  // is none and the caller works in its own thread.
  const entry = fileURLToPath(new URL('./worker-entry.cjs', import.meta.url));
  if (!existsSync(entry) || (module instanceof URL && !existsSync(fileURLToPath(module)))) return null;
  const workerData = { module: moduleRef(module), preload: preload.map(moduleRef) };
  // Idle threads wait with Atomics.waitAsync, not Piscina's default Atomics.wait, which blocks the
  // thread's event loop: the modules a thread imports as it starts (worker-entry.cts) load meanwhile.
  // A worker holds up to TASKS_PER_WORKER tasks (it runs them one at a time): it has work queued
  // while the thread that posts them is busy (judging a batch itself, reading).
  const pool = new (piscina().Piscina)({ filename: entry, workerData, minThreads: threads, maxThreads: threads, resourceLimits, atomics: 'async', concurrentTasksPerWorker: TASKS_PER_WORKER });
  // Listened to from the start, so that a worker dying before the first task (at start-up, say) is not missed.
  const death: Death = { error: undefined, died: false, waiting: new Set() };
  pool.on('error', (error: unknown) => {
    if (!death.died) Object.assign(death, { error, died: true });
    for (const reject of death.waiting) reject(error);
    death.waiting.clear();
  });
  deaths.set(pool, death);
  return pool;
}

/**
 * Runs a task on the pool (the buffers of `transferList` moved to the worker): it fails as the task fails, or when a worker of the pool dies
 * between tasks (at start-up, say), an 'error' of the pool, not of a task, which fails every
 * task still waiting. Each task's waiter is dropped as it settles: racing every task against
 * one long-lived promise kept every result alive (RSS grew by 0.2 kB a game).
 */
export function runTask<R>(pool: Piscina, task: unknown, transferList: ArrayBuffer[] = []): Promise<R> {
  const death = deaths.get(pool)!;
  if (death.died) return Promise.reject(death.error);
  return new Promise<R>((resolve, reject) => {
    death.waiting.add(reject);
    (pool.run(task, { transferList }) as Promise<R>).then(resolve, reject).finally(() => death.waiting.delete(reject));
  });
}

/** Tasks of the pool still waiting (a test holds that none is left once they settled). */
export const tasksWaiting = (pool: Piscina): number => deaths.get(pool)?.waiting.size ?? 0;

let early: { key: string; pool: Piscina } | null = null;
const keyOf = (module: ModuleRef, threads: number, limits: ResourceLimits | undefined): string => JSON.stringify([moduleRef(module), threads, limits ?? null]);

/**
 * Starts a pool before its owner is ready (the CLI, while it loads a command): the threads
 * start and import `module` and `preload` meanwhile. The first `workerPool` call asking for
 * the same module, threads and limits takes it; `dropEarlyPool` ends one nobody took.
 */
export function startPoolEarly(module: ModuleRef, threads: number, resourceLimits: ResourceLimits | undefined, preload: ModuleRef[]): void {
  if (early) return;
  const pool = createPool(module, threads, resourceLimits, preload);
  if (pool) early = { key: keyOf(module, threads, resourceLimits), pool };
}

/** Ends the pool `startPoolEarly` started if nobody took it (the command failed before its run, or ran with other jobs). */
export async function dropEarlyPool(): Promise<void> {
  const left = early;
  early = null;
  await left?.pool.destroy();
}

/**
 * A pool of `threads` worker threads, each running the default export of the task module
 * `module` (a built-in one by name, or an ES module's URL; one task in, its result out), through the CommonJS entry of
 * worker-entry.cts. Null when the built files are not there (tests run the sources):
 * callers then do the work in this thread.
 */
export function workerPool(module: ModuleRef, threads: number, resourceLimits?: ResourceLimits): Piscina | null {
  if (early !== null && early.key === keyOf(module, threads, resourceLimits)) {
    const { pool } = early;
    early = null;
    return pool;
  }
  return createPool(module, threads, resourceLimits, []);
}
