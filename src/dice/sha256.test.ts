import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestByte, initialState, compress, sha256 } from './sha256.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const nodeSha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('SHA-256 (FIPS 180-4 known answers)', () => {
  it('hashes the empty message', () => {
    expect(hex(sha256(new Uint8Array(0)))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes "abc" (one block)', () => {
    expect(hex(sha256(ascii('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the 448-bit message (padding spills into a second block)', () => {
    expect(hex(sha256(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes the 896-bit message', () => {
    const msg = 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';
    expect(hex(sha256(ascii(msg)))).toBe('cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1');
  });

  it('hashes a million "a"s', () => {
    expect(hex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('agrees with node:crypto around the padding boundaries', () => {
    for (const length of [1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129]) {
      const msg = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) & 0xff);
      expect(hex(sha256(msg)), `length ${length}`).toBe(nodeSha256(msg));
    }
  });

  it('reads digest bytes from the state big-endian', () => {
    const state = initialState();
    compress(state, new Uint8Array(64), 0);
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => digestByte(state, i));
    const written = new Uint8Array(32);
    for (let i = 0; i < 8; i++) new DataView(written.buffer).setInt32(4 * i, state[i]);
    expect(hex(bytes)).toBe(hex(written));
  });

  it('agrees with node:crypto createHash (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (msg) => {
        expect(hex(sha256(msg))).toBe(nodeSha256(msg));
      }),
      { numRuns: 500 },
    );
  });
});
