import { isAscii, isUtf8 } from 'node:buffer';
import path from 'node:path';
import type { FormatName, GameRecord, GameRecordInput } from '../model/game-record.js';
import { finaliseRecord } from '../model/finalise.js';
import type { TextSource } from '../input/text-source.js';
import { type Draft, RAW_WHOLE_LINE, RecordProblem, SPAN, problem, unreadable } from '../items.js';
import { parseJson } from '../input/json-values.js';
import { noteInvalidUtf8 } from '../input/utf8.js';
import { jsonRawBatches, splitLine } from './json-lines.js';

/** What every reader may need besides its text. */
export interface ReadContext<S = unknown> {
  /** The format's sidecar as loaded for this read (see Sidecar); null without one. */
  sidecar: S | null;
  /** Raw batches are judged on this thread only (ReadOptions.sameThread): they may share the read's buffers instead of a copy of their own. */
  sameThread?: boolean;
}

/** Where a raw record sits: its source, its (first) line, its span flags (RAW_WHOLE_LINE), the CSV header. */
export interface RawPlace {
  source: string;
  line: number;
  flags: number;
  header: string | null;
}

/**
 * Metadata a format reads from files of its own beside its records (dicechess.com: the player's
 * history list, with results, ratings and clocks), named by the read's options: loaded once a
 * read, and handed to the reading of every record of the format (`ReadContext.sidecar`), in
 * whatever thread decodes it.
 */
export interface Sidecar<S> {
  /** What its files are called in sentences ("history list"). */
  name: string;
  /** The files (paths, URLs or "-" for stdin) the read's options name for it; undefined: none. */
  files(opts: SidecarOptions): string | string[] | undefined;
  /** One file's contents; throws a SourceError (code and sentence) for one that cannot be read. */
  load(src: TextSource): Promise<S>;
  /** The contents of no file, to merge files into. */
  empty(): S;
  /** Two files' contents as one (the later one wins where they overlap). */
  merge(into: S, later: S): S;
  /** Whether the contents give no record anything (the read then says so). */
  isEmpty(s: S): boolean;
  /** What an empty one gives no record, in words after "holds no …" ("game rows (gameId): no game gets metadata from it"). */
  emptyText: string;
}

/** The read options that name sidecar files (`ReadOptions` has them). */
export interface SidecarOptions {
  /** dicechess.com history-list file or URL with game metadata (result, players, clocks); several are merged. */
  historyList?: string | string[];
}

export interface FormatModule<S = unknown> {
  name: FormatName;
  /**
   * The source a chunk at a time: records cut as bytes (`raw` drafts, for `parse`), and
   * unreadable entries in their place. Formats without a raw form give records.
   */
  readBatches(src: TextSource, ctx: ReadContext<S>): AsyncIterable<Draft[]>;
  /** One raw record → its drafts, never raw (one; several when a line holds several JSON documents). Runs where it is judged. */
  parse?(text: string, at: RawPlace, ctx: ReadContext<S>): Draft[];
  /**
   * A fast reading of one raw record straight from its ASCII bytes `bytes[start, end)`, for the
   * form the format's writers use; undefined for anything else (then `parse` reads the text).
   */
  parseBytes?(bytes: Buffer, start: number, end: number, at: RawPlace, ctx: ReadContext<S>): Draft[] | undefined;
  /** Every draft decoded, one at a time (tests, tools). */
  read(src: TextSource, ctx: ReadContext<S>): AsyncIterable<Draft>;
  /** One record as text, ending with a newline (no header). */
  make(record: GameRecord): string;
  /** Why this format has no text for a record (null: it has): writers say so instead of dropping it without a word. */
  unwritable?(record: GameRecord): string | null;
  /** Written once before the first record (the CSV header line). */
  header?: string;
  /** The format's metadata from files of its own, if it has any. */
  sidecar?: Sidecar<S>;
}

/** Where one document sits, and the id to use when the source gives none. */
export interface DocPlace {
  location: string;
  /** `<file basename>:<line>`. */
  derivedId: string;
  source: string;
  line: number;
}

export const basename = (name: string): string => (name === '-' ? 'stdin' : path.basename(name.replace(/[?#].*$/, '')));

export function docPlace(source: string, line: number): DocPlace {
  return { location: `${source}:${line}`, derivedId: `${basename(source)}:${line}`, source, line };
}

/** Mutable while a document converts, so a failure can still name the record. */
export interface Attempt {
  id: string | null;
}

export type ParseDoc<S = unknown> = (doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt, ctx: ReadContext<S>) => GameRecordInput;

/**
 * A format's fast conversion straight from a document's ASCII bytes `bytes[start, end)`, for
 * the form its writers use; undefined (or a throw) where the document is anything else: the
 * general path (JSON.parse and ParseDoc) then reads it and words any problem. Held equal to
 * the general path by a test.
 */
export type ParseDocBytes<S = unknown> = (bytes: Buffer, start: number, end: number, place: DocPlace, notes: Set<string>, attempt: Attempt, ctx: ReadContext<S>) => GameRecordInput | undefined;

/**
 * A JSON-family format (one document, NDJSON, concatenated documents or an array): cut
 * into raw documents by the reading thread, each one parsed and converted on its own
 * where it is judged: one bad document is one unreadable entry, never the end of the stream.
 */
export function jsonFormat<S = unknown>(name: FormatName, parseDoc: ParseDoc<S>, make: (r: GameRecord) => string, parseDocBytes?: ParseDocBytes<S>, sidecar?: Sidecar<S>): FormatModule<S> {
  const module: FormatModule<S> = {
    name,
    readBatches: (src, ctx) => jsonRawBatches(src, name, ctx.sameThread !== true),
    parse: (text, at, ctx) => parseJsonDoc(text, at, parseDoc, ctx),
    parseBytes: parseDocBytes && ((bytes, start, end, at, ctx) => fastParse(bytes, start, end, at, parseDocBytes, ctx)),
    read: (src, ctx) => readParsed(module, src, ctx),
    make,
  };
  if (sidecar) module.sidecar = sidecar;
  return module;
}

function fastParse<S>(bytes: Buffer, start: number, end: number, at: RawPlace, parseDocBytes: ParseDocBytes<S>, ctx: ReadContext<S>): Draft[] | undefined {
  try {
    const notes = new Set<string>();
    const input = parseDocBytes(bytes, start, end, docPlace(at.source, at.line), notes, { id: null }, ctx);
    return input === undefined ? undefined : [{ kind: 'record', record: finaliseRecord(input, notes) }];
  } catch {
    return undefined;
  }
}

function parseJsonDoc<S>(text: string, at: RawPlace, parseDoc: ParseDoc<S>, ctx: ReadContext<S>): Draft[] {
  const parsed = parseJson(text);
  // Not one document after all (e.g. two on one line): cut it the careful way.
  if (!parsed.ok && (at.flags & RAW_WHOLE_LINE) !== 0) return splitLine(text).map((sub) => parseOneDoc(sub, at, parseDoc, ctx));
  return [parseOneDoc(text, at, parseDoc, ctx, parsed)];
}

function parseOneDoc<S>(text: string, at: RawPlace, parseDoc: ParseDoc<S>, ctx: ReadContext<S>, parsedAlready?: ReturnType<typeof parseJson>): Draft {
  const place = docPlace(at.source, at.line);
  const parsed = parsedAlready ?? parseJson(text);
  if (!parsed.ok) return unreadable(problem('record.bad-json', `not valid JSON: ${parsed.message}`), place.location, guessId(text));
  return convertOne(() => {
    const notes = new Set<string>();
    const attempt: Attempt = { id: null };
    try {
      return finaliseRecord(parseDoc(parsed.value, place, notes, attempt, ctx), notes);
    } catch (e) {
      if (e instanceof RecordProblem) throw new IdentifiedProblem(e, attempt.id);
      throw e;
    }
  }, place.location);
}

/** A reader's drafts with every raw one decoded in place, in order. */
export async function* readParsed<S>(module: FormatModule<S>, src: TextSource, ctx: ReadContext<S>): AsyncGenerator<Draft> {
  for await (const batch of module.readBatches(src, ctx)) {
    for (const d of batch) {
      if (d.kind === 'raw') yield* parseSpans(module, d, src.name, ctx);
      else yield d;
    }
  }
}

/** The drafts of a raw item's records, in order, each decoded by the format's `parse`. */
export function* parseSpans<S>(
  module: FormatModule<S>,
  raw: { bytes: Uint8Array; spans: Int32Array; header: string | null },
  source: string,
  ctx: ReadContext<S>,
  onRecord?: (i: number) => void,
): Generator<Draft> {
  const bytes = Buffer.from(raw.bytes.buffer, raw.bytes.byteOffset, raw.bytes.byteLength);
  // Plain ASCII (the usual case) needs no UTF-8 decoding: a byte copy gives the same text.
  const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
  // Bytes that are not UTF-8 become U+FFFD: each record is checked only when the whole item fails.
  const checkRecords = encoding === 'utf8' && !isUtf8(bytes);
  const { spans } = raw;
  // The fast reading takes ASCII bytes only; anything else is read from its text.
  const fast = encoding === 'latin1' ? module.parseBytes : undefined;
  for (let k = 0; k < spans.length; k += SPAN) {
    onRecord?.(k / SPAN);
    const at: RawPlace = { source, line: spans[k + 2], flags: spans[k + 3], header: raw.header };
    const drafts = fast?.(bytes, spans[k], spans[k + 1], at, ctx) ?? module.parse!(bytes.toString(encoding, spans[k], spans[k + 1]), at, ctx);
    if (checkRecords && !isUtf8(bytes.subarray(spans[k], spans[k + 1]))) for (const d of drafts) if (d.kind === 'record') noteInvalidUtf8(d.record);
    yield* drafts;
  }
}

class IdentifiedProblem extends Error {
  constructor(
    readonly inner: RecordProblem,
    readonly id: string | null,
  ) {
    super(inner.message);
  }
}

/** Runs one record's conversion; a RecordProblem becomes its unreadable entry. */
export function convertOne(run: () => GameRecord, location: string | null, id: string | null = null): Draft {
  try {
    return { kind: 'record', record: run() };
  } catch (e) {
    if (e instanceof IdentifiedProblem) return unreadable(e.inner.problem, location, e.id ?? id);
    if (e instanceof RecordProblem) return unreadable(e.problem, location, id);
    // A reader bug must not stop the stream either; it still counts as unreadable.
    return unreadable(problem('record.bad-field', `the record could not be converted: ${(e as Error)?.message ?? e}`), location, id);
  }
}

/** The record id of broken JSON text, when an id field is still legible. */
export function guessId(text: string): string | null {
  const m = /"(?:id|gameId|game_id)"\s*:\s*"([^"\\]{1,200})"/.exec(text.slice(0, 4096));
  return m ? m[1] : null;
}
