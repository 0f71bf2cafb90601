import { runTask, workerLimits, workerPool, workerThreads } from '../worker-pool.js';
import { workOf } from './auto-jobs.js';
import type { BatchItem, JudgeRef, WarmTask } from './batch.js';
import { itemBytes } from './batch-size.js';

type Pool = NonNullable<ReturnType<typeof workerPool>>;

/** The workers' warm-ups: workers done warming up (starting, importing, building the judge), the first failure, and when all are over. */
interface Warm {
  ready: number;
  failure: { error: unknown } | null;
  settled: Promise<void>;
}

/**
 * A run's worker threads (`threads − 1` of them; none for one thread). They start at once when
 * the input is known to pay for them; for an input of unknown size (a URL, stdin, a history
 * list: `lazy`) only once the records read are a worker's worth (auto-jobs.ts), so a small one
 * never waits for, nor shares its core with, a thread that would have nothing to do.
 */
export class RunWorkers {
  pool: Pool | null = null;
  warm: Warm = { ready: 0, failure: null, settled: Promise.resolve() };
  /** Waiting for the input read to pay for the workers (an input of unknown size), and how much of a worker's worth it is so far. */
  private waiting: boolean;
  private work = 0;

  constructor(
    readonly threads: number,
    private readonly judgeRef: JudgeRef,
    /** Judging passes per record (auto-jobs.ts's weight). */
    private readonly weight: number,
    lazy: boolean,
  ) {
    this.waiting = threads > 1 && lazy;
    if (threads > 1 && !lazy) this.start();
  }

  /** Told of each item read: starts the workers once the input read pays for them. */
  read(item: BatchItem): void {
    if (!this.waiting) return;
    this.work += workOf(itemBytes(item), item.kind === 'raw' ? item.format : 'ndjson', this.weight);
    if (this.work >= 1) {
      this.waiting = false;
      this.start();
    }
  }

  destroy(): Promise<void> {
    return this.pool?.destroy() ?? Promise.resolve();
  }

  /**
   * Starts the pool and each worker's warm-up. A worker counts as ready once it is over, failed
   * or not: a failed one fails the batch sent to it. Through runTask: a worker that dies before
   * it takes the task is the pool's error, not the task's, and must settle it too.
   */
  private start(): void {
    const workers = workerThreads(this.threads);
    const pool = workerPool('batch', workers, workerLimits());
    if (pool === null) return;
    this.pool = pool;
    const warm = this.warm;
    const each = Array.from({ length: workers }, () =>
      runTask(pool, { warm: this.judgeRef } satisfies WarmTask)
        .catch((error: unknown) => void (warm.failure ??= { error }))
        .finally(() => void warm.ready++),
    );
    warm.settled = Promise.all(each).then(() => undefined);
  }
}
