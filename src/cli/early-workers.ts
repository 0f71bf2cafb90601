import { availableParallelism } from 'node:os';
import type { JudgeModuleName } from '../judge-modules.js';

/** The judge of each command that judges on worker threads (see JudgeSpec.module). */
const JUDGES: Record<string, JudgeModuleName> = { replay: 'replay', infer: 'infer' };

let started = false;

/**
 * Starts the worker threads of a command that judges on them before the command itself
 * is loaded: the threads import their modules while this thread loads the command and
 * reads the arguments. The jobs are read from the arguments as the command will read
 * them (`--jobs N`, default all cores); the run takes the pool only if it asks for the
 * same (worker-pool.ts), so a wrong guess costs time, never a result.
 */
export async function startWorkersEarly(argv: string[]): Promise<void> {
  const judge = Object.hasOwn(JUDGES, argv[0] ?? '') ? JUDGES[argv[0]] : undefined;
  if (judge === undefined || argv.some((a) => a === '--help' || a === '--version')) return;
  let jobs = availableParallelism();
  for (let i = 1; i < argv.length && argv[i] !== '--'; i++) {
    if (argv[i] === '--jobs') jobs = Number(argv[++i]);
    else if (argv[i].startsWith('--jobs=')) jobs = Number(argv[i].slice('--jobs='.length));
  }
  if (!Number.isInteger(jobs) || jobs < 2) return;
  const { startPoolEarly, workerLimits, workerThreads } = await import('../worker-pool.js');
  startPoolEarly('batch', workerThreads(jobs), workerLimits(), [judge]);
  started = true;
}

/** Ends the threads `startWorkersEarly` started if the command did not take them. */
export async function dropEarlyWorkers(): Promise<void> {
  if (started) await (await import('../worker-pool.js')).dropEarlyPool();
}
