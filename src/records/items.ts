import type { FormatName, GameRecord } from './model/game-record.js';
import { type Problem, problem, type UnreadableCode } from './problems.js';
import type { SharedSidecar } from './shared-sidecar.js';

export { fail, mapWithin, type Problem, problem, RecordProblem, UNREADABLE_CODES, type UnreadableCode, within } from './problems.js';

export type ReadItem =
  | { kind: 'record'; index: number; record: GameRecord }
  | { kind: 'unreadable'; index: number; source: string; location: string | null; id: string | null; code: string; message: string };

/**
 * Records not yet decoded: whole records as bytes, cut by the reading thread without
 * decoding them, so whoever judges them (a worker thread) decodes each one just before
 * judging it with its format's `parse` (`parseRawRecords`). A record is a line (the NDJSON family), a JSON
 * document cut from a stream, or a game's consecutive rows (CSV, with the header beside).
 * One item stands for `recordsIn(item)` records, numbered from `index`.
 */
export interface RawRecords {
  kind: 'raw';
  index: number;
  source: string;
  format: FormatName;
  /** The CSV header line, which every batch of rows needs; null for other formats. */
  header: string | null;
  /** The records' bytes, owned by this item alone (so they can be transferred to a worker). */
  bytes: Uint8Array;
  /** Per record, SPAN numbers: byte start, byte end (line break excluded), 1-based line number, flags (RAW_WHOLE_LINE). */
  spans: Int32Array;
  /** The format's sidecar as loaded for this read (dicechess.com: the history list), shared with the threads that decode: absent without one. */
  sidecar?: SharedSidecar;
}

/** Numbers per record in `RawRecords.spans`. */
export const SPAN = 4;
/** Flag: the record is a whole line that may hold several JSON documents (rescanned when it does not parse as one). */
export const RAW_WHOLE_LINE = 1;

/** How many records a raw item (or raw draft) stands for. */
export const recordsIn = (raw: { spans: Int32Array }): number => raw.spans.length / SPAN;

/**
 * Something about a source that is not a record and not a failure to read one: a file
 * passed over as plainly not records, an empty input, a folder link not followed again.
 * Reported once each (stderr, the summary), never as an unreadable entry.
 */
export interface SourceNote {
  source: string;
  code: 'source.skipped' | 'source.empty' | 'source.link-loop' | 'source.link-repeat';
  message: string;
}

/** What a format reader yields; the stream position and source name are added by `readRecords`. */
export type Draft =
  | { kind: 'record'; record: GameRecord }
  | { kind: 'unreadable'; location: string | null; id: string | null; code: UnreadableCode; message: string }
  | { kind: 'raw'; format: FormatName; header: string | null; bytes: Uint8Array; spans: Int32Array };

/** A line or document longer than a reader takes: passed over, and still accounted for. */
export const tooLarge = (location: string, bytes: number, limit: number): Draft =>
  unreadable(
    problem('record.too-large', `this record's text is ${(bytes / 2 ** 20).toFixed(1)} MiB long, more than the ${limit / 2 ** 20} MiB one record may take; skipped`),
    location,
    null,
  );

export const unreadable = (p: Problem, location: string | null, id: string | null): Draft => ({
  kind: 'unreadable',
  location: p.location ?? location,
  id,
  code: p.code,
  message: p.message,
});
