import { type AnyJudge, type BatchTask, runBatch } from './batch.js';

const judges = new Map<string, Promise<AnyJudge>>();

/** A thread's judge for a task: its module imported and `createJudge(params)` called once per (module, params). */
function judgeFor(task: BatchTask): Promise<AnyJudge> {
  const key = `${task.judge.module}\u0000${JSON.stringify(task.judge.params)}`;
  let judge = judges.get(key);
  if (!judge) {
    judge = import(task.judge.module).then((m: { createJudge: (params: unknown) => AnyJudge }) => m.createJudge(task.judge.params));
    judges.set(key, judge);
  }
  return judge;
}

/** The worker-thread task (run through worker-pool.ts): a batch in, its result text and counters out. */
export default async function run(task: BatchTask) {
  return runBatch(task, await judgeFor(task));
}
