/**
 * Chi-square tail probability, written here rather than pulled from a stats package:
 * the report needs one number (is the corpus' dice distribution plausibly uniform?)
 * and the degrees of freedom are always small whole numbers.
 */

/** ln Γ(df/2) for a whole df ≥ 1, exactly from Γ(1) = 1, Γ(1/2) = √π and Γ(a+1) = a·Γ(a). */
function lnGammaHalf(df: number): number {
  let a = df % 2 === 0 ? 1 : 0.5;
  let acc = df % 2 === 0 ? 0 : 0.5 * Math.log(Math.PI);
  while (a < df / 2) {
    acc += Math.log(a);
    a += 1;
  }
  return acc;
}

/** Regularised lower incomplete gamma P(a, x) by its power series (converges fast for x < a + 1). */
function lowerSeries(a: number, x: number, lnGammaA: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < 1000; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - lnGammaA);
}

/** Regularised upper incomplete gamma Q(a, x) by its continued fraction (modified Lentz), for x ≥ a + 1. */
function upperFraction(a: number, x: number, lnGammaA: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGammaA) * h;
}

/**
 * P(X ≥ statistic) for X ~ χ²(df): the p-value of a goodness-of-fit test.
 * `df` must be a whole number ≥ 1; a statistic ≤ 0 gives 1.
 */
export function chiSquareSurvival(statistic: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a whole number ≥ 1, not ${df}`);
  if (!(statistic > 0)) return 1;
  if (!Number.isFinite(statistic)) return 0;
  const a = df / 2;
  const x = statistic / 2;
  const lnGammaA = lnGammaHalf(df);
  const q = x < a + 1 ? 1 - lowerSeries(a, x, lnGammaA) : upperFraction(a, x, lnGammaA);
  return Math.min(1, Math.max(0, q));
}

/** Pearson's statistic Σ (observed − expected)² / expected; cells with expected 0 are skipped. */
export function chiSquareStatistic(observed: readonly number[], expected: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i];
    if (e > 0) s += (observed[i] - e) ** 2 / e;
  }
  return s;
}
