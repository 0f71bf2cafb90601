/**
 * Byte comparisons for the byte scanners (state maps, ingest wire), eight bytes at a time: a
 * DataView's `getFloat64` is the fastest unaligned eight-byte read V8 gives (about three times
 * `getUint32`'s speed over a state map step's 200 bytes, which compare four), and most of a
 * state map is compared with the step before it rather than read; the ingest wire's keys are
 * literals of 9 to 20 bytes.
 *
 * Two doubles compare equal exactly when their bits are equal, except NaN (never equal to
 * itself) and +0 / -0 (equal, different bits). Each comparison here has on one side bytes
 * known to be printable ASCII (0x20–0x7E: a literal of the form, or a span the scanner has
 * read and checked): such eight bytes are neither a NaN (its top byte would be 0x7F or 0xFF)
 * nor a zero (no zero byte), so equal doubles are equal bytes. A NaN on the other side only
 * reads as "different", which leaves the bytes to the slower reading.
 */

/**
 * A literal's bytes, and the same as little-endian doubles: its whole eights, then (eight
 * bytes or more) its last eight, which overlap them; a shorter one is compared byte by byte.
 */
export interface Literal8 {
  length: number;
  doubles: Float64Array;
  last: number;
  bytes: Uint8Array;
}

/** A literal of printable ASCII (the form's keys and punctuation). */
export function literal8(s: string): Literal8 {
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0));
  for (const c of bytes) if (c < 0x20 || c > 0x7e) throw new Error(`literal8: ${JSON.stringify(s)} is not printable ASCII`);
  const doubles = new Float64Array(s.length >> 3);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < doubles.length; i++) doubles[i] = view.getFloat64(8 * i, true);
  return { length: s.length, doubles, last: s.length >= 8 ? view.getFloat64(s.length - 8, true) : 0, bytes };
}

/** The bytes being scanned, as doubles (`bind8` sets it for a document's buffer). */
let view: DataView = new DataView(new ArrayBuffer(0));

/** Makes `b` the bytes these helpers read. */
export function bind8(b: Uint8Array): void {
  if (view.buffer !== b.buffer || view.byteOffset !== b.byteOffset || view.byteLength !== b.byteLength) view = new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/** `literal` at p: the position after it, or -1 (nothing read at or past `end`). */
export function lit8(b: Uint8Array, p: number, end: number, literal: Literal8): number {
  const k = literal.length;
  if (p + k > end) return -1;
  if (k >= 8) {
    const doubles = literal.doubles;
    for (let w = 0, i = 0; w < doubles.length; w++, i += 8) if (view.getFloat64(p + i, true) !== doubles[w]) return -1;
    return view.getFloat64(p + k - 8, true) === literal.last ? p + k : -1;
  }
  const bytes = literal.bytes;
  for (let i = 0; i < k; i++) if (b[p + i] !== bytes[i]) return -1;
  return p + k;
}

/**
 * How many of the k bytes at p (k within the document) are the bytes at a, which the
 * scanner has read and checked: exact up to the first differing eight, then byte by byte.
 */
export function sameBytes8(b: Uint8Array, p: number, a: number, k: number): number {
  let i = 0;
  for (; i + 8 <= k; i += 8) if (view.getFloat64(p + i, true) !== view.getFloat64(a + i, true)) break;
  // All whole eights the same: the last eight (overlapping them) tells the rest at once.
  if (i + 8 > k && k >= 8 && view.getFloat64(p + k - 8, true) === view.getFloat64(a + k - 8, true)) return k;
  for (; i < k; i++) if (b[p + i] !== b[a + i]) break;
  return i;
}

/** The bytes from a to z (read and checked before) again at p: the position after them, or -1. */
export function again8(b: Uint8Array, p: number, end: number, a: number, z: number): number {
  const k = z - a;
  if (k === 0 || p + k > end) return -1;
  if (k >= 8) {
    // The whole eights, then the last eight (overlapping them) for the rest.
    for (let i = 0; i + 8 <= k; i += 8) if (view.getFloat64(p + i, true) !== view.getFloat64(a + i, true)) return -1;
    return view.getFloat64(p + k - 8, true) === view.getFloat64(a + k - 8, true) ? p + k : -1;
  }
  for (let i = 0; i < k; i++) if (b[p + i] !== b[a + i]) return -1;
  return p + k;
}
