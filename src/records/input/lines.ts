import { isAscii } from 'node:buffer';
import type { TextSource } from './text-source.js';

const NL = 10;
const CR = 13;

export interface Line {
  text: string;
  /** 1-based line number in the source. */
  line: number;
}

/**
 * The source's bytes cut after a newline: every chunk holds whole lines only (the last
 * one may lack its newline at the end of the source). When the source broke off, the
 * unfinished last line is dropped: it belongs to the lost rest, reported once.
 */
export async function* wholeLineChunks(src: TextSource): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  for await (const chunk of src.bytes()) {
    const cut = chunk.lastIndexOf(NL);
    if (cut < 0) {
      pending.push(chunk);
      continue;
    }
    const lines = chunk.subarray(0, cut + 1);
    yield pending.length ? Buffer.concat([...pending, lines]) : lines;
    pending = cut + 1 < chunk.length ? [chunk.subarray(cut + 1)] : [];
  }
  if (pending.length && src.failure === null) yield Buffer.concat(pending);
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
    // Each line is decoded on its own (small strings die young; a chunk-sized one would not), and
    // records are almost always plain ASCII: then a byte copy replaces UTF-8 decoding.
    const encoding = isAscii(chunk) ? 'latin1' : 'utf8';
    const batch: Line[] = [];
    eachLine(chunk, (start, end) => batch.push({ text: chunk.toString(encoding, start, end), line: ++line }));
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
