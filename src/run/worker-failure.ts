/** A worker thread died (out of memory, a crash) judging a batch: one line naming the batch, a failure of the run (exit 2). */
export class WorkerFailure extends Error {
  constructor(batch: string, cause: unknown) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0].trim() || 'no reason given';
    super(`a worker thread failed judging ${batch}: ${reason}`);
    this.name = 'WorkerFailure';
  }
}
