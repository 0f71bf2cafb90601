import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';

/**
 * A pool of `threads` worker threads, each running the default export of the ES module
 * at `module` (one task in, its result out), through the CommonJS entry of
 * worker-entry.cts. Null when the built files are not there (tests run the sources):
 * callers then do the work in this thread.
 */
export function workerPool(module: URL, threads: number, resourceLimits?: ResourceLimits): Piscina | null {
  const entry = fileURLToPath(new URL('./worker-entry.cjs', import.meta.url));
  if (!existsSync(entry) || !existsSync(fileURLToPath(module))) return null;
  return new Piscina({ filename: entry, workerData: { module: module.href }, minThreads: threads, maxThreads: threads, resourceLimits });
}
