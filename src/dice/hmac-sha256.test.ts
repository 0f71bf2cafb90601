import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HmacSha256Key, PrefixedHmac, hmacSha256 } from './hmac-sha256.js';
import { digestByte } from './sha256.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const fill = (length: number, byte: number): Uint8Array => new Uint8Array(length).fill(byte);
const nodeHmac = (key: Uint8Array, msg: Uint8Array): string => createHmac('sha256', key).update(msg).digest('hex');
const digestHex = (digest: Int32Array): string => hex(Uint8Array.from({ length: 32 }, (_, i) => digestByte(digest, i)));

describe('HMAC-SHA256 (RFC 4231 known answers)', () => {
  // Test case 5 checks a truncated output, which this module does not offer.
  const cases: Array<[name: string, key: Uint8Array, data: Uint8Array, mac: string]> = [
    ['1', fill(20, 0x0b), ascii('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    ['2 (key shorter than the output)', ascii('Jefe'), ascii('what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
    ['3', fill(20, 0xaa), fill(50, 0xdd), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    ['4', Uint8Array.from({ length: 25 }, (_, i) => i + 1), fill(50, 0xcd), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
    ['6 (key longer than a block)', fill(131, 0xaa), ascii('Test Using Larger Than Block-Size Key - Hash Key First'), '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
    [
      '7 (key and data longer than a block)',
      fill(131, 0xaa),
      ascii('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.'),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];
  for (const [name, key, data, mac] of cases) {
    it(`test case ${name}`, () => {
      expect(hex(hmacSha256(key, data))).toBe(mac);
    });
  }
});

describe('HMAC-SHA256 against node:crypto (properties)', () => {
  it('one-off MACs agree with createHmac', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 300 }), (key, msg) => {
        expect(hex(hmacSha256(key, msg))).toBe(nodeHmac(key, msg));
      }),
      { numRuns: 500 },
    );
  });

  it('a PrefixedHmac reused for several variable tails agrees with createHmac every time', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 0, max: 80 }).chain((n) => fc.array(fc.uint8Array({ minLength: n, maxLength: n }), { minLength: 1, maxLength: 4 })),
        (key, prefix, tails) => {
          const mac = new PrefixedHmac(new HmacSha256Key(key), prefix, tails[0].length);
          for (const tail of tails) {
            mac.tail.set(tail, mac.variableOffset);
            expect(digestHex(mac.mac())).toBe(nodeHmac(key, Buffer.concat([prefix, tail])));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
