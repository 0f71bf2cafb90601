import { CR, NL } from '../char-codes.js';
import { isAscii, isUtf8 } from 'node:buffer';
import type { TextSource } from './text-source.js';


/** Longest line a line-based reader takes (bytes): a longer one is skipped, not held in memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface Line {
  text: string;
  /** 1-based line number in the source. */
  line: number;
  /** Set when the line was longer than the limit: its length in bytes (`text` is then empty). */
  tooLong?: number;
  /** Set when the line's bytes were not all UTF-8 (those became U+FFFD in `text`). */
  invalidUtf8?: true;
}

/**
 * The source's bytes cut after a newline: every chunk holds whole lines only (the last
 * one may lack its newline at the end of the source). When the source broke off, the
 * unfinished last line is dropped: it belongs to the lost rest, reported once. A line
 * that would have to be held across reads beyond `maxLine` bytes is skipped to its end
 * and stands as its length in bytes (a number). Reads are far smaller than the limit,
 * so every longer line is one of those; memory stays bounded whatever the input.
 */
export async function* wholeLineChunks(src: TextSource, maxLine = MAX_LINE_BYTES): AsyncGenerator<Buffer | number> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Bytes of an over-long line skipped so far, or -1 when not skipping. */
  let skipped = -1;
  for await (let chunk of src.bytes()) {
    if (skipped >= 0) {
      const nl = chunk.indexOf(NL);
      if (nl < 0) {
        skipped += chunk.length;
        continue;
      }
      yield skipped + nl;
      skipped = -1;
      chunk = chunk.subarray(nl + 1);
      if (chunk.length === 0) continue;
    }
    const cut = chunk.lastIndexOf(NL);
    if (cut < 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes > maxLine) {
        skipped = pendingBytes;
        pending = [];
        pendingBytes = 0;
      }
      continue;
    }
    let lines = chunk.subarray(0, cut + 1);
    if (pending.length) {
      const first = chunk.indexOf(NL);
      if (pendingBytes + first > maxLine) {
        // The line that ends here began in earlier chunks and is over the limit.
        yield pendingBytes + first;
        lines = lines.subarray(first + 1);
        pending = [];
      }
    }
    if (pending.length) yield Buffer.concat([...pending, lines]);
    else if (lines.length) yield lines;
    pending = cut + 1 < chunk.length ? [chunk.subarray(cut + 1)] : [];
    pendingBytes = chunk.length - cut - 1;
  }
  if (src.failure !== null) return;
  if (skipped >= 0) yield skipped;
  else if (pending.length) yield Buffer.concat(pending);
}

/** Calls `visit(start, end)` for each line of a whole-line chunk: byte offsets, the line break (\n or \r\n) left out. */
export function eachLine(chunk: Buffer, visit: (start: number, end: number) => void): void {
  for (let start = 0; start < chunk.length; ) {
    let nl = chunk.indexOf(NL, start);
    if (nl < 0) nl = chunk.length;
    visit(start, nl > start && chunk[nl - 1] === CR ? nl - 1 : nl);
    start = nl + 1;
  }
}

/** Splits a text source into lines (\n or \r\n), a chunk's worth at a time (one await per chunk, not per line). */
export async function* lineBatches(src: TextSource): AsyncGenerator<Line[]> {
  let line = 0;
  for await (const chunk of wholeLineChunks(src)) {
    if (typeof chunk === 'number') {
      yield [{ text: '', line: ++line, tooLong: chunk }];
      continue;
    }
    // Each line is decoded on its own (small strings die young; a chunk-sized one would not), and
    // records are almost always plain ASCII: then a byte copy replaces UTF-8 decoding.
    const encoding = isAscii(chunk) ? 'latin1' : 'utf8';
    const batch: Line[] = [];
    if (encoding === 'utf8' && !isUtf8(chunk)) {
      eachLine(chunk, (start, end) => {
        const l: Line = { text: chunk.toString(encoding, start, end), line: ++line };
        if (!isUtf8(chunk.subarray(start, end))) l.invalidUtf8 = true;
        batch.push(l);
      });
    } else eachLine(chunk, (start, end) => batch.push({ text: chunk.toString(encoding, start, end), line: ++line }));
    yield batch;
  }
}

/** Splits a text source into lines (\n or \r\n). */
export async function* lines(src: TextSource): AsyncGenerator<Line> {
  for await (const batch of lineBatches(src)) yield* batch;
}

/** Is the line from `start` to `end` (bytes, newline excluded) only blanks (space, tab, CR)? */
export function isBlankBytes(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== CR) return false;
  }
  return true;
}
