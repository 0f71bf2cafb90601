import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { FormatName } from '../records/game-record.js';
import { readRecords, recordsIn } from '../records/index.js';
import { workerPool } from '../worker-pool.js';
import { type InferItem, type InferPlan, inferBatch, type InferTask } from './judge.js';
import { emptyTally, type InferTally, mergeTally } from './tally.js';

/**
 * Streams a corpus through the infer judging, in batches, in worker threads, and merges
 * the batches' counters (mergeable, so the order batches come back in does not matter).
 * A thin adapter over the run pipeline's primitives (the shared reader with raw records
 * deferred to the workers, the worker pool): src/run's `runCorpus` accumulates result
 * lines into a replay summary and has no place for a judge's own counters yet.
 */
export interface StreamOptions {
  sources: string[];
  plan: InferPlan;
  format?: FormatName | 'auto';
  jobs?: number;
  limit?: number;
  onProgress?: (p: StreamProgress) => void;
}

export interface StreamProgress {
  records: number;
  elapsedMs: number;
  rssBytes: number;
  done: boolean;
}

export interface StreamResult {
  tally: InferTally;
  records: number;
  /** Sources that could not be opened or fetched at all. */
  sourceErrors: number;
}

const BATCH = 256;
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };
const SOURCE_CODES = new Set(['record.io', 'record.http', 'record.unknown-format']);

export async function streamInfer(opts: StreamOptions): Promise<StreamResult> {
  const started = Date.now();
  const jobs = Math.max(1, opts.jobs ?? availableParallelism());
  const plan = opts.plan;
  const tally = emptyTally(plan.named.length, plan.options.map((o) => o.values.length));
  const pool = jobs > 1 ? workerPool(new URL('./worker.js', import.meta.url), jobs, WORKER_LIMITS) : null;
  const judge = (task: InferTask): Promise<InferTally> =>
    pool ? pool.run(task, { transferList: task.items.flatMap((i) => (i.kind === 'raw' ? [i.bytes.buffer as ArrayBuffer] : [])) }) : Promise.resolve(inferBatch(task));
  const corpusOf = corpusNamer(opts.sources);
  const inFlight: Array<Promise<InferTally>> = [];
  const maxInFlight = pool ? jobs * 2 : 1;
  let batch: InferItem[] = [];
  let batchRecords = 0;
  let records = 0;
  let sourceErrors = 0;
  const submit = async (): Promise<void> => {
    if (batch.length === 0) return;
    const corpora = batch.map((item) => corpusOf(item.kind === 'record' ? item.record.location : item.kind === 'raw' ? item.source : (item.location ?? item.source)));
    inFlight.push(judge({ items: batch, corpora, plan }));
    batch = [];
    batchRecords = 0;
    while (inFlight.length >= maxInFlight) mergeTally(tally, await inFlight.shift()!);
  };
  let lastTick = 0;
  const tick = (done: boolean): void => {
    const now = Date.now();
    if (!done && now - lastTick < 500) return;
    lastTick = now;
    opts.onProgress?.({ records, elapsedMs: now - started, rssBytes: process.memoryUsage.rss(), done });
  };
  try {
    for await (const item of readRecords(opts.sources, { format: opts.format ?? 'auto', limit: opts.limit, deferRaw: pool !== null })) {
      const n = item.kind === 'raw' ? recordsIn(item) : 1;
      records += n;
      if (item.kind === 'unreadable' && item.id === null && SOURCE_CODES.has(item.code)) sourceErrors++;
      batch.push(item);
      batchRecords += n;
      if (batchRecords >= BATCH) await submit();
      tick(false);
    }
    await submit();
    while (inFlight.length) mergeTally(tally, await inFlight.shift()!);
  } finally {
    await pool?.destroy();
  }
  tick(true);
  return { tally, records, sourceErrors };
}

/** The corpus of a record: the file it came from, named as the user named it (as the replay's matrix rows). */
function corpusNamer(sources: string[]): (location: string | null) => string | null {
  const roots = sources.map((s) => ({ s, abs: resolve(s) }));
  return (location) => {
    if (location === null) return null;
    const file = location.replace(/#.*$/, '').replace(/:\d+$/, '');
    for (const { s, abs } of roots) if (file.startsWith(abs) && !file.startsWith(s)) return s + file.slice(abs.length);
    return file;
  };
}
