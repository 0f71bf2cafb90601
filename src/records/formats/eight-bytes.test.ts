import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { again8, bind8, lit8, literal8, sameBytes8 } from './eight-bytes.js';

/** The byte-by-byte answers the helpers stand for. */
const sameBytes = (b: Uint8Array, p: number, a: number, k: number): number => {
  let i = 0;
  while (i < k && b[p + i] === b[a + i]) i++;
  return i;
};
const again = (b: Uint8Array, p: number, end: number, a: number, z: number): number => (z - a === 0 || p + (z - a) > end || sameBytes(b, p, a, z - a) < z - a ? -1 : p + (z - a));
const lit = (b: Uint8Array, p: number, end: number, s: string): number => {
  if (p + s.length > end) return -1;
  for (let i = 0; i < s.length; i++) if (b[p + i] !== s.charCodeAt(i)) return -1;
  return p + s.length;
};

const printable = fc.integer({ min: 0x20, max: 0x7e });
/** Bytes that make a double NaN or ±0 (0x7F/0xFF then 0xF0–0xFF; 0x80 and 0x00) among printable ones. */
const anyByte = fc.oneof(printable, fc.constantFrom(0x00, 0x80, 0x7f, 0xff, 0xf0, 0xf8), fc.integer({ min: 0, max: 255 }));

describe('eight bytes at a time', () => {
  it('a literal at p: as comparing byte by byte, whatever the bytes around it', () => {
    fc.assert(
      fc.property(fc.array(printable, { minLength: 1, maxLength: 40 }), fc.array(anyByte, { maxLength: 80 }), fc.nat(), fc.boolean(), (litCodes, noise, at, plant) => {
        const s = String.fromCharCode(...litCodes);
        const b = Uint8Array.from(noise);
        const bytes = new Uint8Array(b.length + s.length + 8);
        bytes.set(b);
        const p = b.length === 0 ? 0 : at % (b.length + 1);
        if (plant) for (let i = 0; i < s.length; i++) bytes[p + i] = s.charCodeAt(i);
        bind8(bytes);
        for (const end of [bytes.length, p + s.length, p + s.length - 1]) expect(lit8(bytes, p, end, literal8(s))).toBe(lit(bytes, p, end, s));
      }),
      { numRuns: 3000 },
    );
  });

  it('bytes again, and how many are the same: as comparing byte by byte when one side is printable ASCII', () => {
    fc.assert(
      fc.property(fc.array(printable, { minLength: 1, maxLength: 60 }), fc.array(fc.tuple(fc.nat(), anyByte), { maxLength: 6 }), fc.nat(8), (known, edits, tail) => {
        // The checked span first, then a copy of it with some bytes changed (NaN and zero patterns among them), then more.
        const k = known.length;
        const bytes = new Uint8Array(2 * k + tail + 8).fill(0x41);
        bytes.set(known);
        bytes.set(known, k);
        for (const [i, v] of edits) bytes[k + (i % k)] = v;
        bind8(bytes);
        expect(sameBytes8(bytes, k, 0, k)).toBe(sameBytes(bytes, k, 0, k));
        for (const end of [bytes.length, 2 * k, 2 * k - 1]) expect(again8(bytes, k, end, 0, k)).toBe(again(bytes, k, end, 0, k));
      }),
      { numRuns: 3000 },
    );
  });

  it('+0 and -0, and NaNs, are not taken for equal bytes on the unchecked side', () => {
    // Eight zero bytes against 0x80 then seven zeros: equal as doubles. The literal side is printable, so never a zero.
    const bytes = new Uint8Array(32);
    bytes[15] = 0x80;
    bind8(bytes);
    expect(lit8(bytes, 0, 32, literal8('ABCDEFGH'))).toBe(-1);
    bytes.set(Buffer.from('ABCDEFGHABCDEFGX'), 16);
    expect(again8(bytes, 24, 32, 16, 24)).toBe(-1);
    expect(sameBytes8(bytes, 24, 16, 8)).toBe(7);
  });

  it('refuses a literal that is not printable ASCII', () => {
    expect(() => literal8('a\u0000b')).toThrow();
    expect(() => literal8('é')).toThrow();
  });
});
