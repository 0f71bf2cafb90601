import { open } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { detectFormat } from '../records/detect.js';
import type { FormatName } from '../records/model/game-record.js';
import { BATCH_BYTES } from './batch-size.js';
import { listUnits } from './shard-plan.js';

/**
 * Bytes of text (a gzip file's size before compression) one dialect must have to judge before a
 * worker thread pays for its start-up and warm-up, per format (docs/performance.md#threads):
 * whole process on this project's 2-core machine (`node scripts/bench-formats.mjs --crossover
 * 1000,3000,6000,10000 --rounds 5`, 2026-12-07, load 4.2–9.5), `--jobs 2` lost to `--jobs 1` at
 * every size up to 10,000 games (0.47–0.95×; the state maps 1.01× at 6,000 games, 0.71× at
 * 10,000), and it gained 1.02–1.28× on 10,000 games at load 1.6–2.8 (2026-12-01). So a worker
 * starts only above the 10,000-game files measured (and only on an idle core: chooseJobs).
 * Formats not measured take native's.
 */
export const WORKER_PAYS_FROM: Readonly<Record<FormatName, number>> = {
  ndjson: 70_000_000,
  'ingest-wire': 45_000_000,
  history: 38_000_000,
  csv: 36_000_000,
  'dicechess-com': 380_000_000,
  beturanga: 70_000_000,
  'opening-book': 70_000_000,
};

/**
 * A replay's judging passes per record, in one dialect's worth: each dialect besides the first
 * adds a twentieth, since a game stops at its first divergence and most games diverge early
 * under a dialect not their own (`--all-dialects` cost 1.16–2.00× one dialect's CPU time on six
 * corpora: scripts/bench-dialect-cost.mjs, docs/performance.md#threads); with
 * --continue-after-divergence every dialect replays every game whole (8–28× one dialect's), so
 * each counts one. Counted low rather than high: a worker is kept from where it would pay a
 * little, never started where it loses.
 */
export const replayWeight = (dialects: number, continueAfterDivergence: boolean): number =>
  continueAfterDivergence ? Math.max(1, dialects) : 1 + Math.max(0, dialects - 1) / 20;

/** `bytes` of text in `format`, judged `weight` times, as a share of what pays for a worker thread (1: just pays). */
export const workOf = (bytes: number, format: FormatName, weight: number): number => (bytes * weight) / WORKER_PAYS_FROM[format];

/** The bytes of a file's start the format is told from (the reader's detector looks at up to 64 KiB; the formats' keys come early). */
const SNIFF_BYTES = 16 * 1024;

/** How many threads judge a run, and why (what the run says when it chose fewer than the cores, or was asked for more than the input pays for). */
export interface JobsChoice {
  /** Threads that judge: this one and `jobs − 1` workers. */
  jobs: number;
  /**
   * Threads started: `jobs`, or 1 when the input is known to be one batch (BATCH_BYTES of text
   * at most): a batch is judged whole by one thread, so a worker would start for nothing.
   */
  threads: number;
  /** `--jobs` as given (undefined: the default). */
  asked: number | undefined;
  /** `--force-jobs`: the asked-for threads start whatever the input's size. */
  forced: boolean;
  /**
   * The input's work as a share of what pays for a worker (Σ bytes ÷ the format's threshold ×
   * the judging passes, `replayWeight`'s for a replay): below 1, one thread is the quicker; null when some source's size is unknown
   * before reading it (a URL, stdin): its workers start once the records read are a worker's worth (run-workers.ts).
   */
  work: number | null;
  /** The input's bytes of text (null: unknown). */
  bytes: number | null;
}

/** What sizing the input needs: the sources as the run reads them, and how many judging passes every record takes. */
export interface JobsInput {
  jobs?: number;
  /** Start the `jobs` asked for even for an input too small to pay for a worker (to measure or test worker threads). */
  force?: boolean;
  sources: string[];
  glob?: string;
  format?: FormatName | 'auto';
  /** A history list's records are read besides the sources: of a size unknown here. */
  historyList?: string | string[];
  /** Judging passes per record (dialects; a shard's share of them); 1 when omitted. */
  weight?: number;
  /** The 1-minute load average (os.loadavg()'s when omitted; tests give their own). */
  load?: number;
}

/**
 * The threads of a run: all cores, or at most `jobs` when given; but one when the input is too
 * small to pay for a worker thread's start-up (so that more threads are never slower than one),
 * and by default no more than the cores the load average leaves idle besides this thread's.
 * `force` takes the `jobs` asked for as they are. Decided from sizes before any worker starts:
 * stat, a gzip file's trailer, and each file's first bytes for its format; nothing else is read.
 */
export async function chooseJobs(input: JobsInput): Promise<JobsChoice> {
  const cores = availableParallelism();
  const asked = input.jobs;
  const forced = input.force === true && asked !== undefined;
  // Asked for one thread, or there is only one core: nothing to size.
  if (asked === 1 || (asked === undefined && cores < 2)) return { jobs: Math.max(1, asked ?? 1), threads: 1, asked, forced, work: null, bytes: null };
  const size = await inputWork(input);
  let jobs = !forced && size.work !== null && size.work < 1 ? 1 : Math.max(1, asked ?? cores);
  // A worker pays only on a core of its own: on a busy machine (load 4 and more on 2 cores) it
  // takes turns with this thread and loses (docs/performance.md#threads). Said in no note: what a
  // run prints may not hang on the machine's load (run_info records the jobs). Asked-for jobs are
  // not cut: above the size threshold a worker still paid at load 1.4–2.5 on 2 cores.
  if (asked === undefined && jobs > 1) jobs = Math.min(jobs, 1 + Math.max(0, Math.floor(cores - (input.load ?? loadavg()[0]))));
  return { jobs, threads: size.bytes !== null && size.bytes <= BATCH_BYTES ? 1 : jobs, asked, forced, ...size };
}

/** The input's work as a share of a worker's worth (see JobsChoice.work), stopping as soon as it is plainly above it. */
async function inputWork(input: JobsInput): Promise<{ work: number | null; bytes: number | null }> {
  if (input.historyList !== undefined) return { work: null, bytes: null };
  const weight = input.weight !== undefined && input.weight > 0 ? input.weight : 1;
  let work = 0;
  let bytes = 0;
  let units;
  try {
    units = await listUnits(input.sources, input.glob);
  } catch {
    return { work: null, bytes: null }; // the run says what is wrong with its sources
  }
  for (const u of units) {
    if (u.kind === 'note' || u.kind === 'error') continue;
    if (u.kind !== 'file' || u.weight === null) return { work: null, bytes: null };
    const format = input.format !== undefined && input.format !== 'auto' ? input.format : await sniff(u.name);
    bytes += u.weight;
    work += workOf(u.weight, format ?? 'ndjson', weight);
    // Far above a worker's worth: the rest need not be looked at.
    if (work >= 4) return { work, bytes: null };
  }
  return { work, bytes };
}

/** A file's format from its first bytes (gunzipped when gzip), as the reader would detect it; null when unsure. */
async function sniff(path: string): Promise<FormatName | null> {
  let head: Buffer;
  try {
    const fd = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await fd.read(buffer, 0, SNIFF_BYTES, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await fd.close();
    }
    if (head[0] === 0x1f && head[1] === 0x8b) {
      // node:zlib is loaded for a gzip file only, not by every run (about 2 ms of a start).
      const zlib = process.getBuiltinModule('node:zlib');
      head = zlib.gunzipSync(head, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    }
  } catch {
    return null;
  }
  return detectFormat(head.toString('utf8'));
}

const kB = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`);

/**
 * What a run says of its threads, or null when there is nothing to say (the input pays for the
 * threads chosen, or they were forced and have work).
 */
export function jobsNote(choice: JobsChoice): string | null {
  if (choice.work === null || choice.work >= 1) return null;
  const input = choice.bytes === null ? 'the input' : `the input (${kB(choice.bytes)} of text)`;
  const oneBatch = choice.bytes !== null && choice.bytes <= BATCH_BYTES;
  const why = oneBatch ? `${input} is one batch, which one thread judges whole` : `${input} is ${Math.round(choice.work * 100)} % of what pays for a worker thread's start-up`;
  if (choice.asked === undefined) return `1 thread: ${why}`;
  if (choice.forced) return oneBatch ? `--jobs ${choice.asked} --force-jobs: ${why}: no worker thread starts` : null;
  return `--jobs ${choice.asked}: 1 thread, since ${why}${oneBatch ? '' : ' (--force-jobs to start the workers anyway)'}`;
}
