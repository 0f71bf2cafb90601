import { availableParallelism } from 'node:os';
import type { JudgeModuleName } from '../judge-modules.js';
import { FORMAT_NAMES, type FormatName } from '../records/model/game-record.js';

/** The judge of each command that judges on worker threads (see JudgeSpec.module). */
const JUDGES: Record<string, JudgeModuleName> = { replay: 'replay', infer: 'infer' };

/**
 * The options of those commands that take a value (`--out DIR`): the words after them are not
 * sources. Held equal to the commands' own options by a test (arg-parsing.test.ts).
 */
export const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  replay: new Set(['dialect', 'set', 'out', 'jobs', 'format', 'glob', 'history-list', 'limit', 'timeout-ms', 'retries', 'max-bytes', 'deadline-ms', 'fail-on', 'history', 'shard']),
  infer: new Set(['dialect', 'option', 'set', 'out', 'write', 'take-rate', 'evidence', 'by', 'format', 'glob', 'history-list', 'jobs', 'limit', 'timeout-ms', 'retries', 'max-bytes', 'deadline-ms']),
};

/** What the command line says of a run's threads and input, read from the words as the command will read them (a guess: see startWorkersEarly). */
export interface RunWords {
  jobs: number | undefined;
  /** `--force-jobs`: the asked-for threads whatever the input's size. */
  force: boolean;
  sources: string[];
  format: FormatName | 'auto';
  glob: string | undefined;
  historyList: string | undefined;
  dialects: number;
  allDialects: boolean;
  continueAfterDivergence: boolean;
  shards: number;
}

/** Reads `RunWords` from a replay's or infer's arguments (argv[0] is the command). */
export function runWords(argv: string[]): RunWords {
  const takesValue = VALUE_OPTIONS[argv[0]] ?? new Set<string>();
  const words: RunWords = { jobs: undefined, force: false, sources: [], format: 'auto', glob: undefined, historyList: undefined, dialects: 0, allDialects: false, continueAfterDivergence: false, shards: 1 };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      words.sources.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('--') || a === '-') {
      words.sources.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? a.length : eq);
    const value = eq >= 0 ? a.slice(eq + 1) : takesValue.has(name) ? argv[++i] : undefined;
    if (name === 'jobs') words.jobs = Number(value);
    else if (name === 'force-jobs') words.force = value !== 'false';
    else if (name === 'no-force-jobs') words.force = false;
    else if (name === 'format' && (FORMAT_NAMES as readonly string[]).includes(value ?? '')) words.format = value as FormatName;
    else if (name === 'glob') words.glob = value;
    else if (name === 'history-list') words.historyList = value;
    else if (name === 'dialect') words.dialects++;
    else if (name === 'all-dialects') words.allDialects = true;
    else if (name === 'continue-after-divergence') words.continueAfterDivergence = true;
    else if (name === 'shard') words.shards = Number(/^\d+\/(\d+)$/.exec(value ?? '')?.[1] ?? 1) || 1;
  }
  return words;
}

let started = false;

/**
 * Starts the worker threads of a command that judges on them before the command itself
 * is loaded: the threads import their modules while this thread loads the command and
 * reads the arguments. The jobs are read from the arguments as the command will read
 * them (`--jobs N`; by default all cores, unless the input is too small to pay for a
 * worker: run/auto-jobs.ts, sized here as the run will size it); the run takes the pool
 * only if it asks for the same (worker-pool.ts), so a wrong guess costs time, never a result.
 */
export async function startWorkersEarly(argv: string[]): Promise<void> {
  const judge = Object.hasOwn(JUDGES, argv[0] ?? '') ? JUDGES[argv[0]] : undefined;
  if (judge === undefined || argv.some((a) => a === '--help' || a === '--version')) return;
  const words = runWords(argv);
  let jobs = words.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 2) return;
  // Sized as the run will size it: the default's jobs (replay's), and for asked-for jobs too the
  // threads that can have work (none besides this one for an input of one batch).
  if (words.jobs !== undefined || judge === 'replay') {
    const { chooseJobs, replayWeight } = await import('../run/auto-jobs.js');
    const dialects = words.allDialects ? (await import('../dialects/index.js')).listDialects().length : Math.max(1, words.dialects);
    const weight = judge === 'replay' ? replayWeight(dialects, words.continueAfterDivergence) : dialects;
    const choice = await chooseJobs({ jobs: words.jobs, force: words.force, sources: words.sources, glob: words.glob, format: words.format, historyList: words.historyList, weight: weight / words.shards });
    // An input of unknown size (a URL, stdin) starts its workers once what was read pays for them (run/run-workers.ts).
    if (choice.threads < 2 || (choice.work === null && !choice.forced)) return;
    jobs = choice.threads;
  }
  const { startPoolEarly, workerLimits, workerThreads } = await import('../worker-pool.js');
  startPoolEarly('batch', workerThreads(jobs), workerLimits(), [judge]);
  started = true;
}

/** Ends the threads `startWorkersEarly` started if the command did not take them. */
export async function dropEarlyWorkers(): Promise<void> {
  if (started) await (await import('../worker-pool.js')).dropEarlyPool();
}
