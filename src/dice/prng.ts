/**
 * A small seeded pseudo-random generator: sfc32 (Chris Doty-Humphrey's "small fast
 * counting" generator, 128-bit state, period ≥ 2^32) seeded from a string hash.
 *
 * Deterministic across runs, machines and Node versions: only 32-bit integer
 * arithmetic (`Math.imul`, `>>>`) is used, no floating-point state. Not for secrets:
 * the provably-fair scheme (fairness.ts) uses HMAC-SHA256 instead.
 */

/** A seed: any string, or a number (a number n and the string `String(n)` are the same seed). */
export type Seed = string | number;

/** Hashes a seed into four 32-bit words (a 128-bit multiply-xorshift hash over UTF-16 code units). */
export function hashSeed(seed: Seed): [number, number, number, number] {
  const text = typeof seed === 'number' ? String(seed) : seed;
  let h1 = 0x6a09e667;
  let h2 = 0xbb67ae85;
  let h3 = 0x3c6ef372;
  let h4 = 0xa54ff53a;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x85ebca6b);
    h2 = Math.imul(h2 ^ c, 0xc2b2ae35);
    h3 = Math.imul(h3 ^ c, 0x27d4eb2f);
    h4 = Math.imul(h4 ^ c, 0x165667b1);
    h1 = (h1 ^ (h2 >>> 15)) >>> 0;
    h2 = (h2 ^ (h3 >>> 13)) >>> 0;
    h3 = (h3 ^ (h4 >>> 16)) >>> 0;
    h4 = (h4 ^ (h1 >>> 17)) >>> 0;
  }
  // Length in, then a full avalanche of every lane into every other.
  h1 = (h1 ^ text.length) >>> 0;
  for (let round = 0; round < 2; round++) {
    h1 = fmix32((h1 + h2 + h3 + h4) >>> 0);
    h2 = fmix32((h2 + h1) >>> 0);
    h3 = fmix32((h3 + h1) >>> 0);
    h4 = fmix32((h4 + h1) >>> 0);
  }
  return [h1, h2, h3, h4];
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const TWO_32 = 0x1_0000_0000;

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** The seed text this generator was made from (forks derive from it, not from the state). */
  readonly key: string;

  constructor(seed: Seed) {
    this.key = typeof seed === 'number' ? String(seed) : seed;
    [this.a, this.b, this.c, this.d] = hashSeed(this.key);
    // Warm up: sfc32's first outputs still show the seed's structure.
    for (let i = 0; i < 12; i++) this.nextU32();
  }

  /** A uniform 32-bit unsigned integer. */
  nextU32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A uniform float in [0, 1) with 32 bits of resolution. */
  next(): number {
    return this.nextU32() / TWO_32;
  }

  /** A uniform integer in [0, n), without modulo bias (rejection sampling). n must be 1 … 2^32. */
  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`nextInt: n must be an integer in 1..2^32, not ${n}`);
    if (n === 1) return 0;
    const limit = TWO_32 - (TWO_32 % n);
    let x = this.nextU32();
    while (x >= limit) x = this.nextU32();
    return x % n;
  }

  /** True with probability p (p ≤ 0: never, p ≥ 1: always; draws one number either way). */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen element; throws on an empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick: empty list');
    return items[this.nextInt(items.length)];
  }

  /** `count` uniform bytes. */
  bytes(count: number): Buffer {
    const out = Buffer.alloc(count);
    for (let i = 0; i < count; i += 4) {
      const x = this.nextU32();
      for (let k = 0; k < 4 && i + k < count; k++) out[i + k] = (x >>> (8 * k)) & 0xff;
    }
    return out;
  }

  /**
   * An independent generator for a named sub-task (e.g. `game:17`, `dice`). It depends
   * only on this generator's seed and the label, never on how many numbers were drawn,
   * so work can be split and reordered (worker threads) with identical results.
   */
  fork(label: string | number): Prng {
    return new Prng(`${this.key}\u241f${label}`);
  }
}

/** Shorthand for `new Prng(seed)`. */
export const makePrng = (seed: Seed): Prng => new Prng(seed);
