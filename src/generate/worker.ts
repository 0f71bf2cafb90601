/** The worker-thread task (run through worker-pool.ts): one batch of generated games. */
import { type BatchOutput, type GenerateTask, generateBatch } from './generator.js';

export default function (task: GenerateTask): Promise<BatchOutput> {
  return generateBatch(task);
}
