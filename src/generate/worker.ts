/** Piscina worker: one batch of generated games per task. */
import { type BatchOutput, type GenerateTask, generateBatch } from './generator.js';

export default function (task: GenerateTask): Promise<BatchOutput> {
  return generateBatch(task);
}
