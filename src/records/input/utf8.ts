import { isAscii, isUtf8 } from 'node:buffer';
import type { GameRecord } from '../model/game-record.js';

/** The note on a record whose text held bytes that are not UTF-8 (each became U+FFFD when decoded). */
export const INVALID_UTF8_NOTE = 'text:invalid-utf8';

/**
 * Does this piece of a byte stream hold bytes that are not UTF-8? A character cut by the
 * chunk boundary (continuation bytes at the start, an unfinished sequence at the end) is
 * not a fault. Plain ASCII, the usual case, costs one vectorised scan.
 */
export function hasInvalidUtf8(chunk: Uint8Array): boolean {
  if (isAscii(chunk) || isUtf8(chunk)) return false;
  let start = 0;
  while (start < 3 && start < chunk.length && (chunk[start] & 0xc0) === 0x80) start++;
  let end = chunk.length;
  for (let k = 1; k <= 3 && end - k >= start; k++) {
    const b = chunk[end - k];
    if ((b & 0xc0) === 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      if (k < need) end -= k;
      break;
    }
    if ((b & 0x80) === 0) break;
  }
  return !isUtf8(chunk.subarray(start, end));
}

/** Notes the replacement on a record (notes stay sorted, each once). */
export function noteInvalidUtf8(record: GameRecord): void {
  if (!record.notes.includes(INVALID_UTF8_NOTE)) record.notes = [...record.notes, INVALID_UTF8_NOTE].sort();
}
