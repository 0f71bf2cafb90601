import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyCounts } from './key-counts.js';

/** Position-key-like numbers below 2^52; many share their low bits (one slot) or repeat. */
const key = fc.oneof(
  fc.tuple(fc.nat({ max: 2 ** 26 - 1 }), fc.nat({ max: 2 ** 26 - 1 })).map(([a, b]) => a * 2 ** 26 + b),
  fc.tuple(fc.nat({ max: 15 }), fc.nat({ max: 3 })).map(([a, b]) => a * 2 ** 32 + b),
  fc.constantFrom(0, 1, 2 ** 52 - 1, 2 ** 31, 2 ** 32),
);

describe('KeyCounts', () => {
  it('counts as a Map of counts does, through growth and shared slots', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 600 }), fc.constantFrom(2, 8, 128), (keys, capacity) => {
        const counts = new KeyCounts(capacity);
        const reference = new Map<number, number>();
        for (const k of keys) {
          const seen = (reference.get(k) ?? 0) + 1;
          reference.set(k, seen);
          expect(counts.add(k)).toBe(seen);
        }
        for (const k of reference.keys()) expect(counts.get(k)).toBe(reference.get(k));
        expect(counts.get(2 ** 52 + 7)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
