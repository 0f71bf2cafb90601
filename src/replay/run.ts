import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { workerPool } from '../worker-pool.js';
import type { Dialect } from '../dialects/index.js';
import { packageRoot } from '../dialects/index.js';
import type { FormatName } from '../records/game-record.js';
import { readRecords, recordsIn } from '../records/index.js';
import { openRunDir, type RunInfo, type Summary, SummaryBuilder } from '../report/index.js';
import { type BatchItem, type BatchResult, type BatchTask, type DialectSpec, type WarmTask, judgeBatch } from './judge-batch.js';

export interface ReplayRunOptions {
  sources: string[];
  dialects: Array<{ dialect: Dialect; overrides: string[] }>;
  out: string;
  format?: FormatName | 'auto';
  /** Worker threads; 1 = judge in this thread. */
  jobs?: number;
  continueAfterDivergence?: boolean;
  limit?: number;
  junitPerGame?: boolean;
  /** Called about twice a second and once at the end. */
  onProgress?: (p: Progress) => void;
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

export interface ReplayRunResult {
  summary: Summary;
  progress: Progress;
  /** Sources that could not be opened or fetched at all. */
  sourceErrors: number;
}

/** A batch is handed to a worker when its records reach this many bytes (or BATCH_ITEMS items): memory stays flat whatever the records' size. */
const BATCH_BYTES = 512 * 1024;
const BATCH_ITEMS = 512;
/** A worker holds one batch at a time; small heaps keep the process flat (RSS) on endless corpora. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };
const SOURCE_CODES = new Set(['record.io', 'record.http', 'record.unknown-format']);

/**
 * The main job: stream records → judge under every dialect (in worker threads, in
 * batches, results back in input order) → results.ndjson + summary + reports, published
 * only when complete. Memory holds counters, a bounded queue of batches and examples.
 */
export async function runReplay(opts: ReplayRunOptions): Promise<ReplayRunResult> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const names = opts.dialects.map((d) => d.dialect.name);
  const specs: DialectSpec[] = opts.dialects.map((d) => ({ name: d.dialect.file, overrides: d.overrides, label: d.dialect.name, rules: d.dialect.rules }));
  const jobs = Math.max(1, opts.jobs ?? availableParallelism());
  const summary = new SummaryBuilder(names);
  // Workers start first, and load what judging needs while this thread opens the run and reads the first bytes.
  const pool = jobs > 1 ? workerPool(new URL('./worker.js', import.meta.url), jobs, WORKER_LIMITS) : null;
  if (pool) for (let i = 0; i < jobs; i++) pool.run({ warm: specs } satisfies WarmTask).catch(() => undefined);
  let run: Awaited<ReturnType<typeof openRunDir>>;
  try {
    run = await openRunDir(opts.out);
  } catch (error) {
    await pool?.destroy();
    throw error;
  }
  const progress: Progress = { records: 0, lines: 0, diverging: 0, unreadable: 0, elapsedMs: 0, rssBytes: 0, done: false };
  let sourceErrors = 0;

  // Source hashes for run_info: each distinct file once, started now so it overlaps the replay.
  const hashes = new Map<string, Promise<string | null>>();
  for (const s of opts.sources) if (!hashes.has(s)) hashes.set(s, sourceHash(s).catch(() => null));

  // Raw records travel as bytes, moved (not copied) to the worker.
  const judge = (task: BatchTask): Promise<BatchResult> =>
    pool ? pool.run(task, { transferList: task.items.flatMap((i) => (i.kind === 'raw' ? [i.bytes.buffer as ArrayBuffer] : [])) }) : Promise.resolve(judgeBatch(task));

  const out = run.resultsStream;
  const corpusOf = corpusNamer(opts.sources);
  const write = async (corpora: BatchTask['corpora'], { text, notable, conforming, dice }: BatchResult): Promise<void> => {
    summary.addDiceCounts(dice);
    corpora.forEach((corpus, i) => {
      // Matrix rows in input order: every item's corpus is placed before the non-conforming lines are counted.
      summary.noteSource(corpus);
      specs.forEach((_, d) => {
        const n = conforming[i * specs.length + d];
        if (n > 0) summary.addConforming(corpus, names[d], n);
        progress.lines += n;
      });
    });
    for (const line of notable) {
      summary.addResult(line);
      progress.lines++;
      if (line.status === 'diverging') progress.diverging++;
      else progress.unreadable++;
    }
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  };

  const inFlight: Array<{ corpora: BatchTask['corpora']; result: Promise<BatchResult> }> = [];
  const maxInFlight = pool ? jobs * 2 : 1;
  const drainOne = async (): Promise<void> => {
    const next = inFlight.shift()!;
    await write(next.corpora, await next.result);
  };
  let batch: BatchItem[] = [];
  let batchBytes = 0;
  const submit = async (): Promise<void> => {
    if (batch.length === 0) return;
    const task: BatchTask = { items: batch, corpora: batch.map(corpusOfItem), dialects: specs, continueAfterDivergence: opts.continueAfterDivergence === true };
    inFlight.push({ corpora: task.corpora, result: judge(task) });
    batch = [];
    batchBytes = 0;
    while (inFlight.length >= maxInFlight) await drainOne();
  };
  const corpusOfItem = (item: BatchItem): string | null =>
    corpusOf(item.kind === 'record' ? item.record.location : item.kind === 'raw' ? item.source : (item.location ?? item.source));

  let lastTick = 0;
  const tick = (done: boolean): void => {
    const now = Date.now();
    if (!done && now - lastTick < 500) return;
    lastTick = now;
    progress.elapsedMs = now - started;
    progress.rssBytes = process.memoryUsage.rss();
    progress.done = done;
    opts.onProgress?.({ ...progress });
  };

  try {
    // Records travel undecoded: this thread only cuts them, whoever judges them decodes them.
    for await (const item of readRecords(opts.sources, { format: opts.format ?? 'auto', limit: opts.limit, deferRaw: true })) {
      progress.records += item.kind === 'raw' ? recordsIn(item) : 1;
      if (item.kind === 'unreadable' && item.id === null && SOURCE_CODES.has(item.code)) sourceErrors++;
      batch.push(item);
      batchBytes += item.kind === 'raw' ? item.bytes.byteLength : 1024;
      if (batchBytes >= BATCH_BYTES || batch.length >= BATCH_ITEMS) await submit();
      tick(false);
    }
    await submit();
    while (inFlight.length) await drainOne();
  } catch (error) {
    await run.abort();
    await pool?.destroy();
    throw error;
  }
  await pool?.destroy();

  const runInfo: RunInfo = {
    tool: 'dice-dialects',
    version: toolVersion(),
    node: process.version,
    startedAt,
    durationMs: Date.now() - started,
    dialects: Object.fromEntries(opts.dialects.map((d) => [d.dialect.name, { file: d.dialect.file, sha256: d.dialect.sha256 }])),
    sources: await Promise.all(opts.sources.map(async (s) => ({ source: s, sha256: await hashes.get(s)! }))),
    options: {
      dialects: opts.dialects.map((d) => (d.overrides.length ? `${d.dialect.name} ${d.overrides.map((o) => `--set ${o}`).join(' ')}` : d.dialect.name)),
      format: opts.format ?? 'auto',
      jobs,
      continueAfterDivergence: opts.continueAfterDivergence === true,
      limit: opts.limit ?? null,
    },
  };
  const built = summary.build(runInfo);
  await run.finish(built, { junitPerGame: opts.junitPerGame === true });
  tick(true);
  return { summary: built, progress, sourceErrors };
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

function toolVersion(): string {
  try {
    return JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

/** SHA-256 of a local file's bytes (a folder or URL: null; the per-record locations identify those). */
async function sourceHash(source: string): Promise<string | null> {
  if (source === '-' || /^https?:\/\//.test(source) || !existsSync(source) || !statSync(source).isFile()) return null;
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(source)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
