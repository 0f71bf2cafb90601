import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { type ModuleRef, moduleRef, TASKS_PER_WORKER, runTask, workerThreads } from '../worker-pool.js';
import type { FormatName } from '../records/model/game-record.js';
import { type ReadOptions, readRecords, recordsIn, type SourceNote } from '../records/index.js';
import { isSourceFailure } from '../records/source-failure.js';
import { writeText } from '../records/output/write-text.js';
import { openRunDir } from './run-dir.js';
import type { Example, RunInfo, Summary } from '../report/summary-schema.js';
import { RunAccumulator } from './accumulator.js';
import { chooseJobs, type JobsChoice, jobsNote } from './auto-jobs.js';
import { type AnyJudge, type BatchItem, type BatchResult, type BatchTask, type JudgeRef, runBatch } from './batch.js';
import { RunWorkers } from './run-workers.js';
import { BATCH_BYTES, BATCH_ITEMS, itemBytes } from './batch-size.js';
import { ResultFolding } from './fold.js';
import { WorkerFailure } from './worker-failure.js';
import { fileHash, identityHash, toolVersion } from './run-info.js';
import { SHARD_MANIFEST, type ShardManifest } from './manifest.js';
import { BLOCK, listUnits, planShards, type ShardSpec } from './shard-plan.js';
import { shardItems, type UnitRead } from './shard-read.js';

/** A source that could not be read at all: where, its code, and why. */
export interface SourceFailure {
  source: string | null;
  location: string | null;
  code: string;
  message: string;
}

/** How the records are judged: per record, in worker threads or (jobs 1) in this thread. */
export interface JudgeSpec<P, S = never> {
  /** The result columns (dialect names): conforming lines are counted per column instead of travelling back from workers. */
  columns: string[];
  /** The module exporting `createJudge(params): RecordJudge | StatefulJudge` that each worker thread imports: a built-in judge by name, or an ES module's URL. */
  module: ModuleRef;
  /** Structured-cloneable: sent to the workers with every batch and as each worker starts (it may carry what the main thread resolved, so workers need not load it again). */
  params: P;
  /** The same `createJudge`, for judging in this thread. */
  create: (params: P) => AnyJudge;
  /** Judging passes per record, in replay dialects' worth (default: the columns, at least 1): how soon a worker thread pays (auto-jobs.ts). */
  weight?: number;
  /**
   * For a StatefulJudge: the judge's own mergeable state. Each batch's partial state is
   * merged into `initial()` with `merge`, in input order, on this thread; the result is
   * CorpusRunResult.state.
   */
  state?: { initial: () => S; merge: (into: S, part: S) => S };
}

export interface CorpusRunOptions<P, S = never> {
  sources: string[];
  format?: FormatName | 'auto';
  limit?: number;
  /** How to read the sources beyond the format and limit: folder filter, history list, HTTP limits. */
  glob?: string;
  historyList?: string | string[];
  http?: ReadOptions['http'];
  /** Threads that judge, at most: this one and `jobs − 1` workers; 1 = this thread alone. Fewer for an input too small to pay for a worker (auto-jobs.ts). */
  jobs?: number;
  /** Start the `jobs` threads whatever the input's size (to measure or test worker threads). */
  forceJobs?: boolean;
  /**
   * Run folder (results.ndjson, summary, reports), published atomically when complete.
   * Omitted: no run folder is written at all (a judge whose outcome is its own state, e.g.
   * `infer`, which writes its own outputs); not with `shard`.
   */
  out?: string;
  judge: JudgeSpec<P, S>;
  /** Judge only shard K of N and write a partial run folder (results + shard.json) for `mergeShards`. */
  shard?: ShardSpec;
  /** Records per block of a striped unit (default BLOCK); smaller only to exercise striping on small corpora in tests. */
  shardBlock?: number;
  junitPerGame?: boolean;
  /** For run_info and the shard identity: the dialect files and the options that shape the results. */
  about: { dialects: RunInfo['dialects']; options: Record<string, unknown> };
  /** The command that reproduces an example of the summary, or null (run/reproduction.ts); omitted: the examples say nothing of it. */
  reproduce?: (e: Example) => string | null;
  /** Told of each note about a source (passed over, empty, a link not followed), as it comes; the summary lists them too. */
  onNote?: (note: SourceNote) => void;
  /** Called about twice a second and once at the end. */
  onProgress?: (p: Progress) => void;
  /** Told, before the run starts, why it judges on fewer threads than the cores, or on more than its input pays for (auto-jobs.ts); not part of the run's results. */
  onJobsNote?: (note: string) => void;
  /** Told of each source that could not be read at all (exit 2), as it comes; results.ndjson has its line too. */
  onSourceFailure?: (failure: SourceFailure) => void;
}

export interface Progress {
  records: number;
  lines: number;
  diverging: number;
  unreadable: number;
  elapsedMs: number;
  rssBytes: number;
  done: boolean;
}

export interface CorpusRunResult<S = never> {
  /** The run's summary (a shard's: its own records, numbered within the shard). */
  summary: Summary;
  /** The judge's own state, merged over every batch (JudgeSpec.state; undefined without it). */
  state?: S;
  progress: Progress;
  /** Sources that could not be opened or fetched at all. */
  sourceErrors: number;
  /** Every source opened and none held a record: the run checked nothing (a warning; a failure under --fail-on). */
  nothingRead: boolean;
  /** The SHA-256 of each file read to its end, by its path as expanded, taken from its bytes as they were read (not a shard's). */
  digests: ReadonlyMap<string, string>;
  /** The threads that judged, and why. */
  jobs: JobsChoice;
}


/**
 * The run pipeline: read → judge (worker threads, batches, results back in input order)
 * → accumulate (counters, examples, dice) → write (results.ndjson, summary and reports,
 * published only when complete). Memory holds counters, a bounded queue of batches and
 * examples. `replay` and `infer` are this with their own judge (infer's with a state of its
 * own and no run folder); with `shard`, it judges
 * only shard K's records and writes the partial folder `merge` turns into the whole run.
 * In four steps: plan (the shard's units), open (the run folder), stream (read, judge,
 * accumulate, write the results), publish (run_info, the summary, the folder made whole).
 */
export async function runCorpus<P, S = never>(opts: CorpusRunOptions<P, S>): Promise<CorpusRunResult<S>> {
  if (opts.shard && opts.out === undefined) throw new Error('runCorpus: a shard needs a run folder (out)');
  const started = Date.now();
  // All cores or the jobs asked for, but one thread for an input too small to pay for a worker (decided from sizes, before any starts).
  const weight = (opts.judge.weight ?? opts.judge.columns.length) / (opts.shard?.n ?? 1);
  const jobsChoice = await chooseJobs({ jobs: opts.jobs, force: opts.forceJobs, sources: opts.sources, glob: opts.glob, format: opts.format, historyList: opts.historyList, weight });
  const { jobs, threads } = jobsChoice;
  const judgeModule = moduleRef(opts.judge.module);
  const judgeRef: JudgeRef = { module: judgeModule, params: opts.judge.params, key: `${judgeModule}\u0000${JSON.stringify(opts.judge.params)}` };
  // Workers start first, and import and build the judge while this thread plans, opens the run and
  // reads the first bytes; for an input of unknown size, once what was read pays for them.
  const workers = new RunWorkers(threads, judgeRef, weight, jobsChoice.work === null && !jobsChoice.forced);

  let plan: ShardPlan | null;
  let run: RunDir | null;
  try {
    plan = await planRun(opts);
    run = opts.out === undefined ? null : await openRunDir(opts.out);
  } catch (error) {
    await workers.destroy();
    throw error;
  }
  // Said once the run is sure to start (a run that fails on its folder says that alone).
  const note = jobsNote(jobsChoice);
  if (note !== null) opts.onJobsNote?.(note);
  let streamed: Streamed<S>;
  try {
    streamed = await streamRun(opts, { plan, run, workers, judgeRef, started });
  } catch (error) {
    // A results file that could not be written (a full disk) is the cause, not what its writer then met.
    const failed = (await run?.abort()) ?? null;
    await workers.destroy();
    throw failed ?? error;
  }
  await workers.destroy();

  let summary: Summary;
  try {
    summary = await publishRun(opts, { plan, run, jobs, started }, streamed);
  } catch (error) {
    await run?.abort();
    throw error;
  }
  const { progress, sourceErrors, digests, judgeState } = streamed;
  progress.elapsedMs = Date.now() - started;
  progress.rssBytes = process.memoryUsage.rss();
  progress.done = true;
  opts.onProgress?.({ ...progress });
  const result: CorpusRunResult<S> = { summary, progress, sourceErrors, nothingRead: progress.records === 0 && sourceErrors === 0, digests, jobs: jobsChoice };
  if (judgeState) result.state = judgeState.current;
  return result;
}

type ShardPlan = ReturnType<typeof planShards>;
type RunDir = Awaited<ReturnType<typeof openRunDir>>;

/** Plan: a shard's units, from sizes alone, so a source list that cannot be expanded fails before any folder is made (null: not a shard). */
async function planRun(opts: Pick<CorpusRunOptions<unknown>, 'sources' | 'glob' | 'limit' | 'shard'>): Promise<ShardPlan | null> {
  return opts.shard ? planShards(await listUnits(opts.sources, opts.glob), opts.shard.n, { stripeAll: opts.limit !== undefined }) : null;
}

/** What streaming the records leaves for publishing them. */
interface Streamed<S> {
  acc: RunAccumulator;
  progress: Progress;
  sourceErrors: number;
  /** Each file read to its end → the SHA-256 of its bytes, as read. */
  digests: Map<string, string>;
  /** A shard's units as read (their records and hashes). */
  unitReads: UnitRead[];
  /** The SHA-256 of results.ndjson as written. */
  resultsHash: ReturnType<typeof createHash>;
  judgeState: { current: S; merge: (into: S, part: S) => S } | null;
}

/** Stream: reads the sources (or the shard's units), judges, accumulates and writes results.ndjson, in input order. */
async function streamRun<P, S>(
  opts: CorpusRunOptions<P, S>,
  ctx: { plan: ShardPlan | null; run: RunDir | null; workers: RunWorkers; judgeRef: JudgeRef; started: number },
): Promise<Streamed<S>> {
  const { plan, run, workers } = ctx;
  const acc = new RunAccumulator(opts.judge.columns);
  const progress: Progress = { records: 0, lines: 0, diverging: 0, unreadable: 0, elapsedMs: 0, rssBytes: 0, done: false };
  const read = { glob: opts.glob, historyList: opts.historyList, http: opts.http };
  const onNote = (note: SourceNote, at?: [number, number]): void => {
    acc.addNote(note, at);
    opts.onNote?.(note);
  };
  // Source hashes: a file's bytes are hashed as they are read, so nothing is read again to hash
  // it (a run folder's run_info hashes a file not read to its end, --limit or a failure, at the end).
  const digests = new Map<string, string>();
  const onFileDigest = (path: string, sha256: string): void => void digests.set(path, sha256);
  const unitReads: UnitRead[] = [];
  const format = opts.format ?? 'auto';
  const items: AsyncIterable<BatchItem> = plan
    ? shardItems(plan, opts.shard!, { format, limit: opts.limit, block: opts.shardBlock ?? BLOCK, read, onUnit: (u) => unitReads.push(u), onNote })
    : // Records travel undecoded: this thread only cuts them, whoever judges them decodes them.
      readRecords(opts.sources, { ...read, format, limit: opts.limit, deferRaw: true, onNote: (note) => onNote(note), onFileDigest, sameThread: workers.threads < 2 });

  const resultsHash = createHash('sha256');
  const judgeState = opts.judge.state ? { current: opts.judge.state.initial(), merge: opts.judge.state.merge } : null;
  // A shard writes every line; folding repeated unreadable lines needs the whole run's order, so merge folds.
  const folding = plan ? null : new ResultFolding();
  const out = run?.resultsStream ?? null;
  const sourceErrors = await judgeStream(items, { judge: opts.judge, judgeRef: ctx.judgeRef, workers, acc, progress, out, hash: resultsHash, corpusOf: corpusNamer(opts.sources), started: ctx.started, folding, judgeState, onProgress: opts.onProgress, onSourceFailure: opts.onSourceFailure });
  const closing = folding?.closingText() ?? '';
  if (out && closing) await writeText(out, closing);
  return { acc, progress, sourceErrors, digests, unitReads, resultsHash, judgeState };
}

/**
 * Publish: run_info and the summary; a shard's manifest beside its results, or the run folder's
 * summary and reports; the folder is renamed into place whole. Returns the summary.
 */
async function publishRun<P, S>(
  opts: CorpusRunOptions<P, S>,
  ctx: { plan: ShardPlan | null; run: RunDir | null; jobs: number; started: number },
  streamed: Streamed<S>,
): Promise<Summary> {
  const { plan, run, started } = ctx;
  const { acc, progress, digests } = streamed;
  const format = opts.format ?? 'auto';
  const runInfo: RunInfo = {
    tool: 'dice-dialects',
    version: toolVersion(),
    node: process.version,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    dialects: opts.about.dialects,
    sources: [],
    options: {
      ...opts.about.options,
      format,
      jobs: ctx.jobs,
      limit: opts.limit ?? null,
      ...(opts.glob !== undefined && { glob: opts.glob }),
      ...(opts.historyList !== undefined && { historyList: opts.historyList }),
    },
  };
  if (plan) {
    const shard = opts.shard!;
    const block = opts.shardBlock ?? BLOCK;
    const reads = await Promise.all(streamed.unitReads.map(async (u) => ({ unit: u.unit, localStart: u.localStart, records: u.records, sha256: await u.sha256 })));
    const runKey = identityHash({
      tool: runInfo.tool,
      version: runInfo.version,
      dialects: runInfo.dialects,
      options: { ...opts.about.options, format, limit: opts.limit ?? null, glob: opts.glob ?? null, historyList: opts.historyList ?? null },
      sources: opts.sources,
      n: shard.n,
      block,
      units: plan.map((u) => [u.name, u.kind, u.weight, u.owner]),
    });
    const unitHash = new Map(reads.map((r) => [plan[r.unit].name, r.sha256]));
    runInfo.sources = opts.sources.map((s) => ({ source: s, sha256: unitHash.get(s) ?? null }));
    runInfo.shard = { k: shard.k, n: shard.n, runKey };
    const summary = acc.build(runInfo);
    const manifest: ShardManifest = {
      format: SHARD_MANIFEST,
      run_info: runInfo,
      block,
      units: plan.map(({ input: _input, ...u }) => u),
      reads,
      results: { lines: progress.lines, sha256: streamed.resultsHash.digest('hex') },
      records: progress.records,
      sourceErrors: streamed.sourceErrors,
      junitPerGame: opts.junitPerGame === true,
      state: acc.state(),
    };
    await run!.finishWith([['shard.json', `${JSON.stringify(manifest)}\n`]]);
    return summary;
  }
  // A shard's state holds none: its counters are checked against its results, and merge judges the merged examples.
  if (opts.reproduce) acc.setReproductions(opts.reproduce);
  if (!run) {
    // No run folder: nothing written, and nothing read again to hash it; the summary's counters are still the run's.
    runInfo.sources = opts.sources.map((s) => ({ source: s, sha256: digests.get(s) ?? null }));
    return acc.build(runInfo);
  }
  runInfo.sources = await Promise.all(opts.sources.map(async (s) => ({ source: s, sha256: digests.get(s) ?? (await fileHash(s)) })));
  const summary = acc.build(runInfo);
  await run.finish(summary, { junitPerGame: opts.junitPerGame === true });
  return summary;
}

interface StreamContext<P, S> {
  judge: JudgeSpec<P, S>;
  judgeRef: JudgeRef;
  /** The worker threads besides this one (none at one thread; started now, or once the input read pays for them). */
  workers: RunWorkers;
  acc: RunAccumulator;
  progress: Progress;
  /** Where results.ndjson goes (null: no run folder, nothing written). */
  out: NodeJS.WritableStream | null;
  hash: ReturnType<typeof createHash>;
  corpusOf: (location: string | null) => string | null;
  started: number;
  /** Folds repeated unreadable lines out of what is written (null: write every line). */
  folding: ResultFolding | null;
  /** The judge's own state, merged batch by batch in input order (null: a plain RecordJudge). */
  judgeState: { current: S; merge: (into: S, part: S) => S } | null;
  onProgress?: (p: Progress) => void;
  onSourceFailure?: (failure: SourceFailure) => void;
}

/** Batches the items, judges them (workers or here), and accumulates and writes the results in input order. Returns the source errors. */
async function judgeStream<P, S>(items: AsyncIterable<BatchItem>, ctx: StreamContext<P, S>): Promise<number> {
  const { acc, progress, workers, out } = ctx;
  const columns = ctx.judge.columns;
  const judgeRef = ctx.judgeRef;
  let local: AnyJudge | null = null;
  // Raw records travel as bytes, moved (not copied) to the worker. A batch whose results outgrow
  // RESULT_BUDGET is judged in parts: the rest of its items come back with the part's result.
  // A worker that dies between tasks (at start-up, say) fails every batch still waiting.
  // --jobs N judges on N threads, this one and N − 1 workers: a batch goes to a worker while the
  // workers have room (the tasks each one holds), else it is judged here, between reads. So no
  // thread waits for the one that reads, and no core runs two threads. Only a worker done
  // warming up has room: until then (a worker starts in 50-200 ms) the batches are judged here,
  // so a small input never waits for a thread to start (--jobs 2 no slower than --jobs 1).
  const workerRoom = workers.threads > 1 ? TASKS_PER_WORKER * workerThreads(workers.threads) : 0;
  let inWorkers = 0;
  const judge = (task: BatchTask): Promise<BatchResult> => {
    const pool = workers.pool;
    if (pool && inWorkers < Math.min(workerRoom, TASKS_PER_WORKER * workers.warm.ready)) {
      inWorkers++;
      return runTask<BatchResult>(pool, task, movableBytes(task.items))
        .catch((error: unknown) => {
          throw new WorkerFailure(describeBatch(task, ctx.corpusOf), error);
        })
        .finally(() => inWorkers--);
    }
    return Promise.resolve(runBatch(task, (local ??= ctx.judge.create(ctx.judge.params))));
  };

  const write = async (batch: { corpora: BatchTask['corpora']; firsts: number[] }, { text, notable, conforming, dice, faults, unreadableAt, state }: BatchResult): Promise<void> => {
    if (ctx.judgeState) ctx.judgeState.current = ctx.judgeState.merge(ctx.judgeState.current, state as S);
    acc.addDiceCounts(dice);
    acc.addFaultCounts(faults);
    batch.corpora.forEach((corpus, i) => {
      // Matrix rows in input order: every item's corpus is placed before the non-conforming lines are counted.
      acc.noteSource(corpus, batch.firsts[i]);
      columns.forEach((column, d) => {
        const n = conforming[i * columns.length + d];
        if (n > 0) acc.addConforming(corpus, column, n);
        progress.lines += n;
      });
    });
    // The summary counts every line; repeated identical unreadable lines are folded out of the text written.
    let written = '';
    let from = 0;
    let u = 0;
    for (const line of notable) {
      acc.addResult(line);
      progress.lines++;
      if (line.status === 'diverging') progress.diverging++;
      else if (line.status === 'unreadable') {
        progress.unreadable++;
        if (ctx.folding && !ctx.folding.admit(line)) {
          written += text.slice(from, unreadableAt[u]);
          from = unreadableAt[u + 1];
        }
        u += 2;
      }
    }
    written = from === 0 ? text : written + text.slice(from);
    if (!out) return;
    ctx.hash.update(written);
    await writeText(out, written);
  };

  // A batch is judged in parts when its results outgrow RESULT_BUDGET: each further part is
  // sent as soon as the one before it is back, and written in turn.
  interface Part {
    task: BatchTask;
    result: Promise<BatchResult>;
    next: Promise<Part | null>;
  }
  const start = (task: BatchTask): Part => {
    const result = judge(task);
    // A failure is met when its part's turn comes to be written; until then it must not count as unhandled.
    result.catch(() => {});
    const next = result.then(
      (r) => (r.rest ? start({ ...task, items: r.rest.items, corpora: task.corpora.slice(r.rest.item), skip: r.rest.skip }) : null),
      () => null,
    );
    return { task, result, next };
  };
  const inFlight: Part[] = [];
  // Batches judged here wait for the workers' batches before them to be written: a few may.
  const maxInFlight = workers.threads > 1 ? workerRoom + 4 : 1;
  const drainOne = async (): Promise<void> => {
    let part: Part | null = inFlight.shift()!;
    while (part) {
      const r = await part.result;
      await write({ corpora: part.task.corpora, firsts: part.task.items.map((i) => i.index) }, r);
      part = await part.next;
    }
  };
  let batch: BatchItem[] = [];
  let batchBytes = 0;
  // The run's first batch, described: a worker that died warming up is named with it.
  let first: string | null = null;
  const submit = async (): Promise<void> => {
    if (batch.length === 0) return;
    const task: BatchTask = { items: batch, corpora: batch.map(corpusOfItem), columns, judge: judgeRef };
    first ??= describeBatch(task, ctx.corpusOf);
    inFlight.push(start(task));
    batch = [];
    batchBytes = 0;
    while (inFlight.length >= maxInFlight) await drainOne();
  };
  const corpusOfItem = (item: BatchItem): string | null =>
    ctx.corpusOf(item.kind === 'record' ? item.record.location : item.kind === 'raw' ? item.source : (item.location ?? item.source));

  let lastTick = 0;
  const tick = (): void => {
    const now = Date.now();
    if (now - lastTick < 500) return;
    lastTick = now;
    progress.elapsedMs = now - ctx.started;
    progress.rssBytes = process.memoryUsage.rss();
    ctx.onProgress?.({ ...progress });
  };

  let sourceErrors = 0;
  for await (const item of items) {
    progress.records += item.kind === 'raw' ? recordsIn(item) : 1;
    if (item.kind === 'unreadable' && isSourceFailure(item)) {
      sourceErrors++;
      ctx.onSourceFailure?.({ source: item.source, location: item.location, code: item.code, message: item.message });
    }
    batch.push(item);
    workers.read(item);
    batchBytes += itemBytes(item);
    if (batchBytes >= BATCH_BYTES || batch.length >= BATCH_ITEMS) await submit();
    tick();
  }
  await submit();
  while (inFlight.length) await drainOne();
  // A worker that died warming up fails the run even when this thread judged every batch before
  // it died: a broken worker set-up is reported whatever the timing, never passed over.
  await workers.warm.settled;
  if (workers.warm.failure !== null && first !== null) throw new WorkerFailure(first, workers.warm.failure.error);
  return sourceErrors;
}

/**
 * The buffers of a batch's raw records that can be moved to a worker: each one a record
 * item's bytes alone (a buffer also holding other bytes stays here, and is copied).
 */
function movableBytes(items: BatchItem[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const item of items) {
    if (item.kind !== 'raw') continue;
    const { buffer, byteOffset, byteLength } = item.bytes;
    if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) buffers.add(buffer);
  }
  return [...buffers];
}

/** "records 12–40 of corpora/x.ndjson" (input indexes as in results.ndjson), for a failure message. */
function describeBatch(task: BatchTask, corpusOf: (location: string | null) => string | null): string {
  const first = task.items[0];
  const last = task.items[task.items.length - 1];
  const from = first.index + (task.skip ?? 0);
  const to = last.index + (last.kind === 'raw' ? recordsIn(last) : 1) - 1;
  const sources = [...new Set(task.corpora.map((c) => c ?? (first.kind === 'raw' ? first.source : '(unknown source)')))];
  return `records ${from}–${to} of ${sources.join(', ')}`;
}

/**
 * The corpus of a record: the file (or URL) it came from, named as the user named it,
 * so a folder of corpora gives one row per file in the corpus × dialect matrix.
 */
function corpusNamer(sources: string[]): (location: string | null) => string | null {
  const roots = sources.map((s) => ({ s, abs: resolve(s) }));
  return (location) => {
    if (location === null) return null;
    const file = location.replace(/#.*$/, '').replace(/:\d+$/, '');
    for (const { s, abs } of roots) if (file.startsWith(abs) && !file.startsWith(s)) return s + file.slice(abs.length);
    return file;
  };
}
