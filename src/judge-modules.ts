/**
 * The judges a worker thread builds, by name: each module exports `createJudge(params)`.
 * Part of the thread root (with worker-modules.ts): it sits above every judge, and nothing
 * below it imports it. A judge that is not built in (a test's own) travels as its URL.
 */
export const JUDGE_MODULES = {
  replay: () => import('./replay/judge-record.js'),
  infer: () => import('./infer/judge.js'),
} satisfies Record<string, () => Promise<{ createJudge: (params: never) => unknown }>>;

export type JudgeModuleName = keyof typeof JUDGE_MODULES;
