import fc from 'fast-check';
import { KNOWN_ROLLS, KNOWN_SEED } from './test-support/known-answer.js';
import { describe, expect, it } from 'vitest';
import type { Role } from '../core/types.js';
import { makeReveal } from './fairness.js';
import { Prng } from './prng.js';
import { makeRoller, rollD6, rollMovableFace } from './roll.js';

describe('fair d6', () => {
  it('dice are 1..6, count is right, deterministic (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 10 }), (seed, count) => {
        const a = rollD6(new Prng(seed), count);
        const b = rollD6(new Prng(seed), count);
        expect(a).toHaveLength(count);
        expect(a.every((d) => d >= 1 && d <= 6)).toBe(true);
        expect(b).toEqual(a);
      }),
    );
  });
});

describe("BrainKing's movable-types roll", () => {
  it('only shows given faces, uniformly over distinct ones', () => {
    const prng = new Prng('bk');
    const counts = new Map<number, number>();
    const faces: Role[] = [1, 2, 2, 2, 6];
    for (let i = 0; i < 30_000; i++) {
      const f = rollMovableFace(prng, faces)!;
      counts.set(f, (counts.get(f) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 6]);
    for (const c of counts.values()) expect(Math.abs(c - 10_000)).toBeLessThan(600);
    expect(rollMovableFace(prng, [])).toBeNull();
  });

  it('never leaves the set (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { minLength: 1 }), (seed, faces) => {
        const f = rollMovableFace(new Prng(seed), faces as Role[]);
        expect(f !== null && faces.includes(f)).toBe(true);
      }),
    );
  });
});

describe('makeRoller', () => {
  it('fair roller: count dice per ply', () => {
    const r = makeRoller({ method: 'fair', count: 3, prng: new Prng('x') });
    expect(r.roll(0)).toHaveLength(3);
  });

  it('movable-types roller asks for the movable faces and rolls one die', () => {
    const r = makeRoller({ method: 'movable-types', count: 1, prng: new Prng('x') });
    for (let i = 0; i < 50; i++) expect(r.roll(i, () => [3])).toEqual([3]);
    expect(r.roll(0, () => [])).toHaveLength(1);
  });

  it('provably-fair roller reproduces the known answers', () => {
    const r = makeRoller({ method: 'provably-fair', count: 3, reveal: makeReveal(KNOWN_SEED.toString('hex'), 'alice', 'bob') });
    expect([0, 1, 2, 3, 4, 5].map((p) => r.roll(p))).toEqual(KNOWN_ROLLS);
    expect(() => makeRoller({ method: 'fair', count: 3 })).toThrow(TypeError);
  });
});
