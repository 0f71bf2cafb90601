import pLimit from 'p-limit';
import { DETECT_CHARS, detectFormat } from './detect.js';
import type { FormatName } from './game-record.js';
import { FORMATS } from './formats/index.js';
import type { ReadContext } from './formats/format.js';
import { type HistoryIndex, loadHistoryList } from './formats/dicechess-com/history-list.js';
import { Channel } from './input/channel.js';
import { type Expanded, expandSources } from './input/expand.js';
import type { HttpOptions } from './input/http.js';
import { type StreamInput, TextSource } from './input/text-source.js';
import { type Draft, type RawLines, type ReadItem, SPAN, recordsIn, unreadable } from './items.js';
import { decodeRawLines } from './raw-lines.js';

export interface ReadOptions {
  /** A format name, or 'auto' (the default) to tell each source's format from its first bytes. */
  format?: FormatName | 'auto';
  /** dicechess.com history-list file or URL with game metadata (result, players, clocks). */
  historyList?: string;
  /** Stop after this many items (records and unreadable entries). */
  limit?: number;
  /** Sources read at the same time (default 4); output order stays the input order. */
  concurrency?: number;
  http?: HttpOptions;
  /** Only files whose path below a directory source matches this glob (e.g. `**\/*.ndjson`). */
  glob?: string;
  /**
   * Hand records on undecoded, as `raw` items of many records each (decode them with
   * `decodeRawLines` where they are judged); otherwise they are decoded here.
   */
  deferRaw?: boolean;
  /** The former name of `deferRaw` (native lines were the only raw records). */
  deferNative?: boolean;
}

/** The history list could not be loaded: a setup failure of the whole read, not of one record. */
export class ReadSetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Sourced = Draft & { source: string };

/**
 * Every record of every source, in input order (sources as given, the files of a
 * directory sorted by path), each one either a record or an unreadable entry. It
 * never throws for bad data; memory stays flat (each source is streamed, and a
 * source read ahead holds a bounded buffer).
 */
export function readRecords(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions & ({ deferRaw: boolean } | { deferNative: boolean })): AsyncGenerator<ReadItem | RawLines>;
export function readRecords(sources: ReadonlyArray<string | StreamInput>, opts?: ReadOptions): AsyncGenerator<ReadItem>;
export async function* readRecords(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions = {}): AsyncGenerator<ReadItem | RawLines> {
  const controller = new AbortController();
  const ctx: ReadContext = { history: opts.historyList ? await loadHistory(opts.historyList, opts.http) : null };
  // The history list stays on this thread: records that need it are decoded here.
  const defer = (opts.deferRaw ?? opts.deferNative) === true && ctx.history === null;
  const limit = opts.limit ?? Infinity;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  let index = 0;
  const items = concurrency === 1 ? sequential(sources, opts, ctx, controller.signal) : concurrent(sources, opts, ctx, controller.signal, concurrency);
  try {
    if (limit <= 0) return;
    for await (const batch of items) {
      for (const d of batch) {
        if (d.kind === 'record') yield { kind: 'record', index: index++, record: d.record };
        else if (d.kind === 'raw') {
          const spans = index + recordsIn(d) > limit ? d.spans.subarray(0, (limit - index) * SPAN) : d.spans;
          const raw: RawLines = { kind: 'raw', index, source: d.source, format: d.format, header: d.header, bytes: d.bytes, spans };
          if (defer) yield raw;
          else yield* decodeRawLines(raw, ctx);
          index += recordsIn({ spans });
        } else yield { kind: 'unreadable', index: index++, source: d.source, location: d.location, id: d.id, code: d.code, message: d.message };
        if (index >= limit) return;
      }
    }
  } finally {
    controller.abort();
    await items.return(undefined);
  }
}

async function loadHistory(where: string, http?: HttpOptions): Promise<HistoryIndex> {
  const input = /^https?:\/\//i.test(where) ? { kind: 'url' as const, url: where } : where === '-' ? { kind: 'stdin' as const } : { kind: 'file' as const, path: where };
  try {
    return await loadHistoryList(TextSource.open(input, http));
  } catch (e) {
    const err = e as { code?: string; message?: string };
    throw new ReadSetupError(err.code ?? 'record.io', `history list ${where}: ${err.message ?? e}`);
  }
}

async function* sequential(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions, ctx: ReadContext, signal: AbortSignal): AsyncGenerator<Sourced[]> {
  for await (const input of expandSources(sources, opts.glob)) {
    if (signal.aborted) return;
    yield* readInput(input, opts, ctx, signal);
  }
}

/**
 * Up to `concurrency` sources read at once (p-limit), a window of them scheduled
 * ahead, each into its own bounded channel, drained strictly in input order. The
 * source being drained is always the oldest scheduled, so it always holds a slot.
 */
async function* concurrent(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions, ctx: ReadContext, signal: AbortSignal, concurrency: number): AsyncGenerator<Sourced[]> {
  const limit = pLimit(concurrency);
  const inputs = expandSources(sources, opts.glob);
  const window: Channel<Sourced[]>[] = [];
  let exhausted = false;
  const schedule = async (): Promise<void> => {
    while (!exhausted && window.length < concurrency * 2) {
      const next = await inputs.next();
      if (next.done) {
        exhausted = true;
        return;
      }
      const channel = new Channel<Sourced[]>();
      window.push(channel);
      void limit(async () => {
        try {
          if (channel.isCancelled) return;
          for await (const batch of readInput(next.value, opts, ctx, signal)) if (!(await channel.push(batch, weight(batch)))) break;
        } finally {
          channel.close();
        }
      });
    }
  };
  try {
    for (;;) {
      await schedule();
      const channel = window.shift();
      if (!channel) return;
      yield* channel.drain();
    }
  } finally {
    for (const c of window) c.cancel();
    limit.clearQueue();
  }
}

/** How many records a batch stands for: what a read-ahead channel holds at most. */
function weight(batch: Sourced[]): number {
  let n = 0;
  for (const d of batch) n += d.kind === 'raw' ? recordsIn(d) : 1;
  return n;
}

/** One source: detect its format, read it, and turn a broken stream into one last unreadable entry. */
async function* readInput(input: Expanded, opts: ReadOptions, ctx: ReadContext, signal: AbortSignal): AsyncGenerator<Sourced[]> {
  if (input.kind === 'error') {
    yield [{ ...unreadable({ code: input.error.code, message: input.error.message }, input.name, null), source: input.name }];
    return;
  }
  const src = TextSource.open(input, opts.http, signal);
  const source = src.name;
  const failure = (): Sourced => ({ ...unreadable({ code: src.failure!.code, message: src.failure!.message }, source, null), source });
  let format: FormatName | null = opts.format && opts.format !== 'auto' ? opts.format : null;
  if (format === null) {
    const head = await src.peek(DETECT_CHARS);
    format = detectFormat(head);
    if (format === null) {
      if (src.failure) yield [failure()];
      else if (head.trim() !== '') {
        yield [
          {
            ...unreadable({ code: 'record.unknown-format', message: `cannot tell the format of ${source} from its first bytes; name it with --format` }, source, null),
            source,
          },
        ];
      }
      await src.bytes().return(undefined);
      return;
    }
  }
  // Drafts are fresh objects: tag them in place rather than copying one per record.
  for await (const batch of FORMATS[format].readBatches(src, ctx)) {
    for (const d of batch) (d as Sourced).source = source;
    yield batch as Sourced[];
  }
  if (src.failure && !signal.aborted) yield [failure()];
}
