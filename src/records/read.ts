import path from 'node:path';
import pLimit from 'p-limit';
import { DETECT_CHARS, detectFormat } from './detect.js';
import type { FormatName } from './model/game-record.js';
import { FORMATS } from './formats/index.js';
import type { ReadContext, Sidecar, SidecarOptions } from './formats/format.js';
import { withFetchFolders } from './fetch-folder.js';
import { Channel } from './input/channel.js';
import { type Expanded, expandSources } from './input/expand.js';
import type { HttpOptions } from './input/http.js';
import { type StreamInput, TextSource } from './input/text-source.js';
import { notRecordsReason } from './input/not-records.js';
import { noteInvalidUtf8 } from './input/utf8.js';
import { type Draft, type RawRecords, type ReadItem, type SourceNote, SPAN, recordsIn, unreadable } from './items.js';
import { parseRawRecords } from './raw-records.js';
import { type SharedSidecar, shareSidecar } from './shared-sidecar.js';

export interface ReadOptions extends SidecarOptions {
  /** A format name, or 'auto' (the default) to tell each source's format from its first bytes. */
  format?: FormatName | 'auto';
  /** Files not to read as sources (resolved paths): the metadata files of fetch folders. */
  skip?: ReadonlySet<string>;
  /** Stop after this many items (records and unreadable entries). */
  limit?: number;
  /** Sources read at the same time (default 4); output order stays the input order. */
  concurrency?: number;
  http?: HttpOptions;
  /** Only files whose path below a directory source matches this glob (e.g. `**\/*.ndjson`). */
  glob?: string;
  /**
   * Told, in input order, of what is not a record but worth saying: a file found in a
   * folder that is plainly not records (passed over), an empty source, a folder link not
   * followed again. Such sources yield no items.
   */
  onNote?: (note: SourceNote) => void;
  /**
   * Hand records on undecoded, as `raw` items of many records each (decode them with
   * `parseRawRecords` where they are judged); otherwise they are decoded here.
   */
  deferRaw?: boolean;
  /** Raw records are judged on this thread only (none moves to another): their bytes may stay in the buffers they were read into, uncopied. */
  sameThread?: boolean;
  /** Told the SHA-256 of each file source read to its end (its path as expanded, the hex digest of its bytes as stored). */
  onFileDigest?: (path: string, sha256: string) => void;
  /** Inputs already expanded (by `expandSources`): read as they are instead of `sources` (a shard reads only its own). */
  expanded?: Expanded[];
}

/** A format's sidecar (the history list) could not be loaded: a setup failure of the whole read, not of one record. */
export class ReadSetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A source's drafts tagged with its name, and its notes, which travel in order with them. */
type Sourced = (Draft & { source: string }) | { kind: 'note'; note: SourceNote; source: string };

/** What every source of a read shares: each format's sidecar as loaded, and as it travels with raw records. */
interface ReadShared {
  contexts: Record<FormatName, ReadContext>;
  shared: Partial<Record<FormatName, SharedSidecar>>;
}

/**
 * Every record of every source, in input order (sources as given, the files of a
 * directory sorted by path), each one either a record or an unreadable entry. It
 * never throws for bad data; memory stays flat (each source is streamed, and a
 * source read ahead holds a bounded buffer).
 */
export function readRecords(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions & { deferRaw: boolean }): AsyncGenerator<ReadItem | RawRecords>;
export function readRecords(sources: ReadonlyArray<string | StreamInput>, opts?: ReadOptions): AsyncGenerator<ReadItem>;
export async function* readRecords(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions = {}): AsyncGenerator<ReadItem | RawRecords> {
  opts = await withFetchFolders(sources, opts); // a fetch folder's history list is its metadata, its manifest no source
  const controller = new AbortController();
  const ctx = await loadSidecars(opts);
  const defer = opts.deferRaw === true;
  const limit = opts.limit ?? Infinity;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  let index = 0;
  const items = concurrency === 1 ? sequential(sources, opts, ctx, controller.signal) : concurrent(sources, opts, ctx, controller.signal, concurrency);
  try {
    if (limit <= 0) return;
    for await (const batch of items) {
      for (const d of batch) {
        if (d.kind === 'note') {
          opts.onNote?.(d.note);
          continue;
        }
        if (d.kind === 'record') yield { kind: 'record', index: index++, record: d.record };
        else if (d.kind === 'raw') {
          const spans = index + recordsIn(d) > limit ? d.spans.subarray(0, (limit - index) * SPAN) : d.spans;
          const raw: RawRecords = { kind: 'raw', index, source: d.source, format: d.format, header: d.header, bytes: d.bytes, spans };
          const sidecar = ctx.shared[d.format];
          if (sidecar) raw.sidecar = sidecar;
          if (defer) yield raw;
          else yield* parseRawRecords(raw);
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

/**
 * Each format's sidecar the options name, loaded (and, for raw records, shared) once for the
 * read; an empty one is told of as a note.
 */
async function loadSidecars(opts: ReadOptions): Promise<ReadShared> {
  const contexts = {} as Record<FormatName, ReadContext>;
  const shared: ReadShared['shared'] = {};
  for (const [name, module] of Object.entries(FORMATS) as [FormatName, (typeof FORMATS)[FormatName]][]) {
    const files = module.sidecar?.files(opts);
    const value = module.sidecar && files ? await loadSidecar(module.sidecar, files, opts.http) : null;
    contexts[name] = { sidecar: value, sameThread: opts.sameThread };
    if (module.sidecar === undefined || !files) continue;
    // Raw records carry the sidecar along in shared memory: they are decoded where they are judged.
    shared[name] = shareSidecar(value);
    if (module.sidecar.isEmpty(value)) {
      // Named for metadata but holding none: every game would lack it without a word.
      const named = [files].flat().join(', ');
      opts.onNote?.({ source: named, code: 'source.empty', message: `the ${module.sidecar.name} ${named} holds no ${module.sidecar.emptyText}` });
    }
  }
  return { contexts, shared };
}

/** A sidecar's files merged (a later one wins where two overlap). */
async function loadSidecar<S>(sidecar: Sidecar<S>, where: string | string[], http?: HttpOptions): Promise<S> {
  if (Array.isArray(where)) {
    let value = sidecar.empty();
    for (const one of where) value = sidecar.merge(value, await loadSidecar(sidecar, one, http));
    return value;
  }
  const input = /^https?:\/\//i.test(where) ? { kind: 'url' as const, url: where } : where === '-' ? { kind: 'stdin' as const } : { kind: 'file' as const, path: where };
  try {
    return await sidecar.load(TextSource.open(input, http));
  } catch (e) {
    const err = e as { code?: string; message?: string };
    throw new ReadSetupError(err.code ?? 'record.io', `${sidecar.name} ${where}: ${err.message ?? e}`);
  }
}

async function* sequential(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions, ctx: ReadShared, signal: AbortSignal): AsyncGenerator<Sourced[]> {
  for await (const input of inputsOf(sources, opts)) {
    if (signal.aborted) return;
    yield* readInput(input, opts, ctx, signal);
  }
}

/**
 * Up to `concurrency` sources read at once (p-limit), a window of them scheduled
 * ahead, each into its own bounded channel, drained strictly in input order. The
 * source being drained is always the oldest scheduled, so it always holds a slot.
 */
async function* concurrent(sources: ReadonlyArray<string | StreamInput>, opts: ReadOptions, ctx: ReadShared, signal: AbortSignal, concurrency: number): AsyncGenerator<Sourced[]> {
  const limit = pLimit(concurrency);
  const inputs = inputsOf(sources, opts);
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

/** The inputs of the sources, less the files not to read (the metadata of fetch folders). */
async function* inputsOf(sources: Parameters<typeof expandSources>[0], opts: ReadOptions): AsyncGenerator<Expanded> {
  const inputs = opts.expanded ?? expandSources(sources, opts.glob);
  for await (const input of inputs) {
    if (input.kind === 'file' && opts.skip?.has(path.resolve(input.path))) continue;
    yield input;
  }
}

/** How many records a batch stands for: what a read-ahead channel holds at most. */
function weight(batch: Sourced[]): number {
  let n = 0;
  for (const d of batch) n += d.kind === 'raw' ? recordsIn(d) : d.kind === 'note' ? 0 : 1;
  return n;
}

/**
 * Once a source showed bytes that are not UTF-8, its records holding U+FFFD get the note
 * (native NDJSON notes each line exactly; the other formats decode text in larger pieces,
 * so a genuine U+FFFD after a broken byte in the same source is noted too).
 */
function noteReplacements(drafts: Draft[]): void {
  for (const d of drafts) if (d.kind === 'record' && JSON.stringify(d.record).includes('\uFFFD')) noteInvalidUtf8(d.record);
}

/** One source: detect its format, read it, and turn a broken stream into one last unreadable entry. */
async function* readInput(input: Expanded, opts: ReadOptions, ctx: ReadShared, signal: AbortSignal): AsyncGenerator<Sourced[]> {
  if (input.kind === 'error') {
    yield [{ ...unreadable({ code: input.error.code, message: input.error.message }, input.name, null), source: input.name }];
    return;
  }
  if (input.kind === 'note') {
    yield [{ kind: 'note', note: input.note, source: input.note.source }];
    return;
  }
  const onDigest = input.kind === 'file' && opts.onFileDigest ? (sha256: string) => opts.onFileDigest!(input.path, sha256) : undefined;
  const src = TextSource.open(input, opts.http, signal, onDigest);
  const source = src.name;
  const failure = (): Sourced => ({ ...unreadable({ code: src.failure!.code, message: src.failure!.message }, source, null), source });
  const note = (code: SourceNote['code'], message: string): Sourced[] => [{ kind: 'note', note: { source, code, message }, source }];
  const named: FormatName | null = opts.format && opts.format !== 'auto' ? opts.format : null;
  // The first bytes are read ahead whatever the format: they tell an empty source, or a file that is plainly not records.
  // A named format needs only the first chunk (a slow stdin feed starts at once); detection looks further.
  const head = await src.peek(named ? 1 : DETECT_CHARS);
  const format = named ?? detectFormat(head);
  const skip = async (notes: Sourced[]): Promise<Sourced[]> => {
    await src.bytes().return(undefined);
    return notes;
  };
  if (head.trim() === '' && src.ended && !src.failure) {
    yield await skip(note('source.empty', `${source} is empty (${head === '' ? 'no bytes' : 'blank lines only'}): no records`));
    return;
  }
  const notRecords = 'found' in input && input.found ? notRecordsReason(head, source, named !== null || format !== null) : null;
  if (notRecords !== null && !src.failure) {
    yield await skip(note('source.skipped', `${source} is ${notRecords}; passed over`));
    return;
  }
  if (format === null) {
    if (src.failure) yield [failure()];
    else {
      const looks = notRecordsReason(head, source, false);
      const message = `cannot tell the format of ${source} from its first bytes${looks ? ` (it looks like ${looks})` : ''}; name it with --format`;
      yield [{ ...unreadable({ code: 'record.unknown-format', message }, source, null), source }];
    }
    await src.bytes().return(undefined);
    return;
  }
  // Drafts are fresh objects: tag them in place rather than copying one per record.
  for await (const batch of FORMATS[format].readBatches(src, ctx.contexts[format])) {
    for (const d of batch) (d as Sourced).source = source;
    if (src.invalidUtf8) noteReplacements(batch);
    yield batch as Sourced[];
  }
  if (src.failure && !signal.aborted) yield [failure()];
}
