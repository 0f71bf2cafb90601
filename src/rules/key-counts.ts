/**
 * How often each position key has been seen: what a `Map<number, number>` of counts
 * gives, in an open-addressing table of typed arrays. Position keys are 52-bit numbers,
 * which a Map would box and hash for every lookup; here one lookup is a probe or two. The
 * slot is read off the key's low bits (its second random lane).
 */
export class KeyCounts {
  private keys: Float64Array;
  /** 0: an empty slot. */
  private counts: Int32Array;
  private used = 0;

  constructor(capacity = 256) {
    this.keys = new Float64Array(capacity);
    this.counts = new Int32Array(capacity);
  }

  /** Counts one more sighting of `key` (a whole number below 2^53); returns how often it has now been seen. */
  add(key: number): number {
    const keys = this.keys;
    const counts = this.counts;
    const mask = keys.length - 1;
    let i = slot(key) & mask;
    while (counts[i] !== 0) {
      if (keys[i] === key) return ++counts[i];
      i = (i + 1) & mask;
    }
    keys[i] = key;
    counts[i] = 1;
    // At most half full, so probes stay short.
    if (++this.used * 2 > keys.length) this.grow();
    return 1;
  }

  /** How often `key` has been seen (0: never). */
  get(key: number): number {
    const mask = this.keys.length - 1;
    for (let i = slot(key) & mask; this.counts[i] !== 0; i = (i + 1) & mask) if (this.keys[i] === key) return this.counts[i];
    return 0;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    const keys = (this.keys = new Float64Array(oldKeys.length * 2));
    const counts = (this.counts = new Int32Array(oldKeys.length * 2));
    const mask = keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      if (oldCounts[j] === 0) continue;
      let i = slot(oldKeys[j]) & mask;
      while (counts[i] !== 0) i = (i + 1) & mask;
      keys[i] = oldKeys[j];
      counts[i] = oldCounts[j];
    }
  }
}

/** The key's low 32 bits (ToInt32 is exact modulo 2^32 for whole numbers below 2^53). */
const slot = (key: number): number => key | 0;
