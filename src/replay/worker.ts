import { type BatchTask, judgeBatch } from './judge-batch.js';

/** The worker-thread task (run through worker-pool.ts): a batch in, its result lines out. */
export default function run(task: BatchTask) {
  return judgeBatch(task);
}
