import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import { openOutputFile, writeOutputFile } from '../output/file-output.js';
import { throughGzip } from '../output/gzip-output.js';
import { checkFileTarget, OutputPathError } from '../output/output-path.js';
import { runTask, workerPool } from '../worker-pool.js';
import type { Dialect } from '../dialects/index.js';
import { FORMATS } from '../records/formats/index.js';
import type { FormatName } from '../records/model/game-record.js';
import { type AnswerKey, type ExpectedFinding, serializeAnswerKey } from './answer-key.js';
import type { BotStyle } from './bots.js';
import { type BatchOutput, BOOK_TURNS, type GenerateTask, generateBatch } from './generator.js';
import type { InjectSpec } from './inject/index.js';
import type { Rates } from './self-play.js';
import { type CorpusStats, emptyStats, mergeStats } from './stats.js';
import { writeText } from '../records/output/write-text.js';

export interface GenerateOptions {
  dialect: Dialect;
  overrides: string[];
  games: number;
  seed: string;
  format: FormatName;
  /** Output file; gzip-compressed when it ends in `.gz`. */
  out: string;
  /** Answer key path (default `OUT.key.json`); written only when something is planted. */
  keyPath?: string | null;
  bots: BotStyle[];
  rates: Rates;
  inject: InjectSpec[];
  /** Worker threads; 1 = in this thread. Output bytes do not depend on it. */
  jobs?: number;
  /** Games per task. */
  batch?: number;
  bookTurns?: number;
  verify?: boolean;
  onProgress?: (p: GenerateProgress) => void;
}

export interface GenerateProgress {
  games: number;
  total: number;
  elapsedMs: number;
  done: boolean;
}

export interface GenerateResult {
  stats: CorpusStats;
  keyPath: string | null;
  /** With `verify`: records that did not judge as intended. */
  problems: string[];
  elapsedMs: number;
  jobs: number;
}

const DEFAULT_BATCH = 128;

/**
 * Generates a corpus: batches of games in worker threads, written in game order (so
 * the bytes depend only on the arguments, not on threads or timing), through gzip when
 * the name ends in `.gz`, to a temporary file renamed into place when complete.
 */
export async function generateCorpus(opts: GenerateOptions): Promise<GenerateResult> {
  const started = Date.now();
  const jobs = Math.max(1, opts.jobs ?? availableParallelism());
  const batch = Math.max(1, opts.batch ?? DEFAULT_BATCH);
  const module = FORMATS[opts.format];
  const keyPath = opts.inject.length > 0 ? (opts.keyPath ?? `${opts.out}.key.json`) : null;
  // Both outputs are checked before any game is played.
  if (keyPath !== null) {
    checkFileTarget('--key', keyPath);
    if (resolve(keyPath) === resolve(opts.out)) throw new OutputPathError('output.same', `--key ${keyPath}: is the --out file too; name another`);
  }
  const plain = await openOutputFile('--out', opts.out);
  const file = opts.out.endsWith('.gz') ? throughGzip(plain, 9) : plain;
  const pool = jobs > 1 ? workerPool('generate', jobs) : null;
  // Through runTask, as the run pipeline: a worker that dies fails the run rather than leaving it waiting.
  const run = (task: GenerateTask): Promise<BatchOutput> => (pool ? runTask<BatchOutput>(pool, task) : generateBatch(task));

  const write = async (text: string): Promise<void> => {
    await writeText(file.stream, text);
  };

  const stats = emptyStats();
  const problems: string[] = [];
  const expected: Record<string, ExpectedFinding> = {};
  const ids: string[] = [];
  const derivedBase = basename(opts.out);
  let line = 0;
  let gamesDone = 0;
  const tasks: GenerateTask[] = [];
  for (let start = 0; start < opts.games; start += batch) {
    tasks.push({
      dialect: { file: opts.dialect.file, overrides: opts.overrides },
      seed: opts.seed,
      format: opts.format,
      bots: opts.bots,
      rates: opts.rates,
      inject: opts.inject,
      start,
      count: Math.min(batch, opts.games - start),
      bookTurns: opts.bookTurns ?? BOOK_TURNS,
      verify: opts.verify ?? false,
    });
  }
  let lastProgress = 0;
  // A window of tasks in flight; results are written strictly in task order.
  const window = Math.max(2, jobs * 3);
  const inFlight: Array<Promise<BatchOutput>> = [];
  try {
    if (module.header) await write(module.header);
    let next = 0;
    const fill = (): void => {
      while (next < tasks.length && inFlight.length < window) inFlight.push(run(tasks[next++]));
    };
    fill();
    while (inFlight.length > 0) {
      const out = await inFlight.shift()!;
      fill();
      let text = '';
      for (const u of out.units) {
        line += u.text.length === 0 ? 0 : countLines(u.text);
        text += u.text;
        const id = u.id ?? `${derivedBase}:${line}`;
        ids.push(id);
        if (u.expected) expected[id] = u.expected;
      }
      await write(text);
      mergeStats(stats, out.stats);
      problems.push(...out.problems);
      gamesDone += out.stats.games;
      const now = Date.now();
      if (opts.onProgress && (now - lastProgress > 500 || inFlight.length === 0)) {
        lastProgress = now;
        opts.onProgress({ games: gamesDone, total: opts.games, elapsedMs: now - started, done: inFlight.length === 0 });
      }
    }
    await file.commit();
  } catch (error) {
    // The tasks still in flight fail as the pool ends: their failure is not the run's.
    for (const task of inFlight) task.catch(() => {});
    throw (await file.abort()) ?? error;
  } finally {
    await pool?.destroy();
  }

  if (keyPath !== null) {
    const key: AnswerKey = {
      kind: 'dice-dialects/answer-key',
      version: 1,
      dialect: opts.dialect.name,
      format: opts.format,
      seed: opts.seed,
      games: opts.games,
      inject: Object.fromEntries(opts.inject.map((s) => [s.name, s.rate])),
      planted: stats.planted,
      expected,
      records: ids,
    };
    await writeOutputFile('--key', keyPath, serializeAnswerKey(key));
  }
  return { stats, keyPath, problems, elapsedMs: Date.now() - started, jobs: pool ? jobs : 1 };
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
