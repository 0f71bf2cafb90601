import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planLoads, planShards, stripeOwner, TOLERANCE, type Unit } from './shard-plan.js';

const files = (sizes: number[]): Unit[] => sizes.map((w, i) => ({ name: `f${i}`, kind: 'file', weight: w }));
const imbalance = (loads: number[]) => Math.max(...loads) / (loads.reduce((a, b) => a + b, 0) / loads.length) - 1;

/** A site archive: 1,000 daily files whose size grows over the years and varies by day of the week (seeded). */
function archive(): number[] {
  let x = 12345;
  const rand = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: 1000 }, (_, d) => Math.round((2e6 + d * 8e3) * (0.6 + 0.8 * rand()) * (d % 7 >= 5 ? 1.5 : 1)));
}

describe('planShards', () => {
  it('1,000 files: whole files only, each shard within 2 % of the mean, for N = 2 … 40', () => {
    for (const n of [2, 3, 7, 20, 40]) {
      const plan = planShards(files(archive()), n);
      expect(plan.every((u) => u.owner !== null)).toBe(true);
      expect(imbalance(planLoads(plan, n))).toBeLessThanOrEqual(TOLERANCE);
      // A shard reads only its files: about 1,000 / N of them.
      const mine = plan.filter((u) => u.owner === 1).length;
      expect(mine).toBeGreaterThan(1000 / n / 2);
      expect(mine).toBeLessThan((1000 / n) * 2);
    }
  });

  it('a few large files are striped (every shard judges its blocks of them); unknown sizes always are', () => {
    const plan = planShards([...files([5e9, 4e9, ...new Array(30).fill(1e6)]), { name: 'http://x/y', kind: 'url', weight: null }], 20);
    expect(plan.map((u) => u.owner === null)).toEqual([true, true, ...new Array(30).fill(false), true]);
    expect(imbalance(planLoads(plan, 20))).toBeLessThanOrEqual(TOLERANCE);
    expect(planShards(files([1, 2, 3]), 2, { stripeAll: true }).every((u) => u.owner === null)).toBe(true);
  });

  it('property: every unit has exactly one owner in 1…N or is striped, and the plan is a function of sizes and N', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 1e9 }), { freq: 8 }), { maxLength: 60 }), fc.integer({ min: 1, max: 25 }), (sizes, n) => {
        const units: Unit[] = sizes.map((w, i) => ({ name: `u${i}`, kind: w === null ? 'url' : 'file', weight: w }));
        const plan = planShards(units, n);
        expect(plan).toEqual(planShards(units, n));
        for (const u of plan) expect(u.owner === null || (Number.isInteger(u.owner) && u.owner >= 1 && u.owner <= n)).toBe(true);
        plan.filter((u) => u.weight === null).forEach((u) => expect(u.owner).toBeNull());
        const loads = planLoads(plan, n);
        if (loads.some((l) => l > 0)) expect(imbalance(loads)).toBeLessThanOrEqual(TOLERANCE + 1e-9);
      }),
    );
  });

  it('striped blocks go round robin: record r of a unit to shard ⌊r / block⌋ mod N + 1', () => {
    expect([0, 255, 256, 511, 512, 768].map((r) => stripeOwner(r, 3))).toEqual([1, 1, 2, 2, 3, 1]);
    expect([0, 1, 2, 3].map((r) => stripeOwner(r, 2, 1))).toEqual([1, 2, 1, 2]);
  });
});
