import { type BatchTask, type WarmTask, judgeBatch, preparedDialects } from './judge-batch.js';

/** The worker-thread task (run through worker-pool.ts): a batch in, its result lines out; or a warm-up. */
export default function run(task: BatchTask | WarmTask) {
  if ('warm' in task) {
    preparedDialects(task.warm);
    return null;
  }
  return judgeBatch(task);
}
