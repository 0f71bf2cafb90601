import { describe, expect, it } from 'vitest';
import { chiSquareStatistic, chiSquareSurvival } from './chi-square.js';
import { expectedDoublesRate } from '../run/dice-stats.js';

describe('chiSquareSurvival', () => {
  it('matches table values', () => {
    // Critical values from standard chi-square tables.
    expect(chiSquareSurvival(11.07, 5)).toBeCloseTo(0.05, 3);
    expect(chiSquareSurvival(15.086, 5)).toBeCloseTo(0.01, 4);
    expect(chiSquareSurvival(1.145, 5)).toBeCloseTo(0.95, 3);
    expect(chiSquareSurvival(3.841, 1)).toBeCloseTo(0.05, 3);
    expect(chiSquareSurvival(4.351, 5)).toBeCloseTo(0.5, 2);
  });

  it('is exact where a closed form exists', () => {
    // df = 2: Q = e^(-x/2).
    expect(chiSquareSurvival(2, 2)).toBeCloseTo(Math.exp(-1), 12);
    expect(chiSquareSurvival(30, 2)).toBeCloseTo(Math.exp(-15), 15);
  });

  it('handles the ends', () => {
    expect(chiSquareSurvival(0, 5)).toBe(1);
    expect(chiSquareSurvival(-1, 5)).toBe(1);
    expect(chiSquareSurvival(Infinity, 5)).toBe(0);
    expect(chiSquareSurvival(500, 5)).toBeLessThan(1e-100);
    expect(() => chiSquareSurvival(1, 0)).toThrow(RangeError);
  });

  it('is monotone decreasing in the statistic', () => {
    let prev = 1;
    for (let x = 0.25; x < 40; x += 0.25) {
      const p = chiSquareSurvival(x, 5);
      expect(p).toBeLessThan(prev);
      prev = p;
    }
  });

  it('computes Pearson statistics', () => {
    expect(chiSquareStatistic([10, 10, 10, 10, 10, 10], [10, 10, 10, 10, 10, 10])).toBe(0);
    expect(chiSquareStatistic([20, 0, 10, 10, 10, 10], [10, 10, 10, 10, 10, 10])).toBe(20);
  });
});

describe('expectedDoublesRate', () => {
  it('follows 1 - 6·5·…/6^n', () => {
    expect(expectedDoublesRate(1)).toBe(0);
    expect(expectedDoublesRate(2)).toBeCloseTo(1 / 6, 12);
    expect(expectedDoublesRate(3)).toBeCloseTo(4 / 9, 12);
    expect(expectedDoublesRate(7)).toBe(1);
  });
});
