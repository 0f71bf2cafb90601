import { type BatchTask, judgeBatch } from './judge-batch.js';

/** Piscina entry point: a batch in, its result lines out. */
export default function run(task: BatchTask) {
  return judgeBatch(task);
}
