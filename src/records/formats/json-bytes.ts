/**
 * Reading compact JSON values straight from ASCII bytes, for the formats' fast scanners (their
 * keys and punctuation are compared by eight-bytes.ts): each helper takes the bytes, a position
 * and the end of the document, and returns the position after what it read or -1 (none reads
 * at or past the end). A scanner throws `OTHER` (through `need` or `leave`) where the text
 * leaves its form, and the general path reads it.
 */
/** Thrown where the text leaves a scanner's form. */
export const OTHER = new Error('not the compact form');

import { BACKSLASH, COMMA, QUOTE } from '../char-codes.js';

export { BACKSLASH, COMMA, QUOTE };

/** A JSON string at p of printable ASCII with no escapes. */
export function stringEnd(b: Uint8Array, p: number, end: number): number {
  if (p >= end || b[p] !== QUOTE) return -1;
  for (let i = p + 1; i < end; i++) {
    const c = b[i];
    if (c === QUOTE) return i + 1;
    if (c < 32 || c === BACKSLASH || c > 126) return -1;
  }
  return -1;
}

export function digitsEnd(b: Uint8Array, p: number, end: number): number {
  while (p < end && b[p] >= 48 && b[p] <= 57) p++;
  return p;
}

/** A JSON number at p (its grammar checked here: its text then reads as the same double JSON.parse gives). */
export function numberEnd(b: Uint8Array, p: number, end: number): number {
  if (p < end && b[p] === 45) p++;
  const start = p;
  p = digitsEnd(b, p, end);
  if (p === start || (b[start] === 48 && p > start + 1)) return -1;
  if (p < end && b[p] === 46) {
    const f = p + 1;
    p = digitsEnd(b, f, end);
    if (p === f) return -1;
  }
  if (p < end && (b[p] === 101 || b[p] === 69)) {
    p++;
    if (p < end && (b[p] === 43 || b[p] === 45)) p++;
    const d = p;
    p = digitsEnd(b, d, end);
    if (p === d) return -1;
  }
  return p;
}

/** The number JSON.parse reads from the bytes a to z (numberEnd's grammar): whole numbers of up to 15 digits by hand. */
export function numberAt(b: Buffer, a: number, z: number): number {
  if (z - a <= 15) {
    let v = 0;
    let i = a;
    for (; i < z; i++) {
      const d = b[i] - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === z) return v;
  }
  return Number(b.toString('latin1', a, z));
}

type Latin1Bytes = Buffer & { latin1Slice(a: number, z: number): string };

/**
 * The text of the ASCII bytes a to z: Buffer's own latin1 slice, without `toString`'s
 * argument checks and encoding lookup (a state map reads a string for every new FEN).
 */
export function textAt(b: Buffer, a: number, z: number): string {
  return (b as Latin1Bytes).latin1Slice(a, z);
}

/** A position a helper returned, where the form requires one (-1: leave for the general path). */
export function need(q: number): number {
  if (q < 0) throw OTHER;
  return q;
}

/** For a value the form has no room for. */
export function leave(): never {
  throw OTHER;
}

