import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uuidV1Time } from './read.js';

/** The creation time as 60-bit integer arithmetic gives it (the definition the reader's double arithmetic must equal). */
function exact(id: string): number {
  const [low, mid, high] = id.split('-');
  const ticks = (BigInt(`0x${high.slice(1)}`) << 48n) | (BigInt(`0x${mid}`) << 32n) | BigInt(`0x${low}`);
  return Number(ticks / 10_000n) - 12_219_292_800_000;
}

const hex = (n: number) => fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: n, maxLength: n }).map((a) => a.join(''));

describe('the time inside a version-1 UUID', () => {
  it('is the start of a generated dicechess.com game of 2026-01-01', () => {
    expect(new Date(uuidV1Time('dd7458e0-e6a4-11f0-bb50-5d2bc5f7ec20')!).toISOString()).toBe('2026-01-01T00:00:21.290Z');
  });

  it('equals exact integer arithmetic on every field value, the extremes included', () => {
    for (const id of ['00000000-0000-1000-8000-000000000000', 'ffffffff-ffff-1fff-8000-000000000000', '0000270f-0000-1000-8000-000000000000']) expect(uuidV1Time(id)).toBe(exact(id));
    fc.assert(
      fc.property(hex(8), hex(4), hex(3), hex(4), hex(12), (a, b, c, d, e) => {
        const id = `${a}-${b}-1${c}-${d}-${e}`;
        expect(uuidV1Time(id)).toBe(exact(id));
      }),
      { numRuns: 2000 },
    );
  });

  it('is null for ids of other versions', () => {
    expect(uuidV1Time('dd7458e0-e6a4-41f0-bb50-5d2bc5f7ec20')).toBeNull();
  });

  it('is read from exactly the texts of the pattern of a version-1 UUID, and null for every other', () => {
    const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const valid = 'dd7458e0-e6a4-11f0-bb50-5d2bc5f7ec20';
    // Valid ids with a few characters replaced, dropped or added, and arbitrary texts.
    const edited = fc
      .array(fc.tuple(fc.nat({ max: 36 }), fc.nat({ max: 1 }), fc.constantFrom('', '-', '1', '4', 'g', 'G', 'f', 'F', '0', ' ', 'é', '٣')), { minLength: 1, maxLength: 3 })
      .map((edits) => edits.reduce((t, [at, del, ins]) => t.slice(0, at) + ins + t.slice(at + del), valid));
    fc.assert(
      fc.property(fc.oneof(edited, fc.string({ maxLength: 40 })), (id) => {
        expect(uuidV1Time(id)).toBe(pattern.test(id) ? exact(id) : null);
      }),
      { numRuns: 3000 },
    );
  });
});
