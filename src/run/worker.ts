import { importModule, JUDGE_MODULES } from '../worker-modules.js';
import { type AnyJudge, type BatchTask, type JudgeRef, runBatch, type WarmTask } from './batch.js';

const judges = new Map<string, Promise<AnyJudge>>();

/** A thread's judge: its module (a built-in one by name, or a URL) imported and `createJudge(params)` called once per judge key (module and params). */
function judgeFor(ref: JudgeRef): Promise<AnyJudge> {
  let judge = judges.get(ref.key);
  if (!judge) {
    judge = importModule<{ createJudge: (params: unknown) => AnyJudge }>(JUDGE_MODULES, ref.module).then((m) => m.createJudge(ref.params));
    judges.set(ref.key, judge);
  }
  return judge;
}

/** The worker-thread task (run through worker-pool.ts): a batch in, its result text and counters out; or a warm-up. */
export default async function run(task: BatchTask | WarmTask) {
  if ('warm' in task) {
    await judgeFor(task.warm);
    return null;
  }
  return runBatch(task, await judgeFor(task.judge));
}
