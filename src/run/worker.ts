import { type AnyJudge, type BatchTask, type JudgeRef, runBatch, type WarmTask } from './batch.js';

/** Imports a judge module by its reference (a built-in judge's name, or a URL's href). */
export type JudgeImporter = (ref: string) => Promise<{ createJudge: (params: unknown) => AnyJudge }>;

/**
 * The worker-thread task (run through worker-pool.ts): a batch in, its result text and counters
 * out; or a warm-up. The thread root (worker-modules.ts) hands it the judges it may build; a
 * thread builds each judge once per judge key (module and params).
 */
export function batchRunner(importJudge: JudgeImporter): (task: BatchTask | WarmTask) => Promise<Awaited<ReturnType<typeof runBatch>> | null> {
  const judges = new Map<string, Promise<AnyJudge>>();
  const judgeFor = (ref: JudgeRef): Promise<AnyJudge> => {
    let judge = judges.get(ref.key);
    if (!judge) {
      judge = importJudge(ref.module).then((m) => m.createJudge(ref.params));
      judges.set(ref.key, judge);
    }
    return judge;
  };
  return async (task) => {
    if ('warm' in task) {
      await judgeFor(task.warm);
      return null;
    }
    return runBatch(task, await judgeFor(task.judge));
  };
}
