import { inferBatch, type InferTask } from './judge.js';

/** The worker-thread task (run through worker-pool.ts): a batch in, its merged counters out. */
export default function run(task: InferTask) {
  return inferBatch(task);
}
