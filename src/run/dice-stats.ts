import { chiSquareStatistic, chiSquareSurvival } from '../dice/chi-square.js';
import type { DiceStats, Rate } from '../report/summary-schema.js';

/** A recorded turn as the dice statistics see it. `opening`: the first turn of its side in its game. */
export interface DiceTurn {
  dice: readonly number[];
  passed: boolean;
  opening: boolean;
}

/** Seed 001's claim for three-dice play: about one roll in twelve is a forced pass. */
export const EXPECTED_PASS_RATE = 1 / 12;
/** From the start, the 64 ordered three-dice rolls with no pawn and no knight pass: 64/216. */
export const EXPECTED_OPENING_PASS_RATE = 64 / 216;

/** Chance that n fair dice show at least two equal faces: 1 − 6·5·…·(6−n+1) / 6ⁿ. */
export function expectedDoublesRate(n: number): number {
  if (n < 2) return 0;
  if (n > 6) return 1;
  let distinct = 1;
  for (let i = 0; i < n; i++) distinct *= (6 - i) / 6;
  return 1 - distinct;
}

function hasDouble(dice: readonly number[]): boolean {
  for (let i = 1; i < dice.length; i++) for (let j = 0; j < i; j++) if (dice[i] === dice[j]) return true;
  return false;
}

function rate(count: number, of: number, expected: number | null, basis: string): Rate {
  return { count, of, rate: of > 0 ? count / of : null, expected, basis };
}

/**
 * The accumulator's counters as plain data (for the trip back from a worker thread, and a
 * shard's folder). Its schema is `DiceCountsSchema` (accumulator.ts): this module, which
 * worker threads load, needs no zod.
 */
export interface DiceCounts {
  turns: number;
  threeDiceTurns: number;
  passes: number;
  openingTurns: number;
  openingPasses: number;
  faces: number[];
  invalid: number;
  /** [dice count, turns, turns with a double]. */
  doubles: Array<[number, number, number]>;
}

/** Counters only, so a million-game corpus costs the same memory as ten games. */
export class DiceStatsAccumulator {
  private turns = 0;
  private threeDiceTurns = 0;
  private passes = 0;
  private openingTurns = 0;
  private openingPasses = 0;
  private readonly faces = [0, 0, 0, 0, 0, 0];
  private invalid = 0;
  /** Dice count → [turns, turns with a double]. */
  private readonly doubles = new Map<number, [number, number]>();

  add(t: DiceTurn): void {
    this.turns++;
    // The pass-rate expectations (seed 001, 64/216) are for three dice: count those turns only.
    if (t.dice.length === 3) {
      this.threeDiceTurns++;
      if (t.passed) this.passes++;
      if (t.opening) {
        this.openingTurns++;
        if (t.passed) this.openingPasses++;
      }
    }
    for (const d of t.dice) {
      if (Number.isInteger(d) && d >= 1 && d <= 6) this.faces[d - 1]++;
      else this.invalid++;
    }
    if (t.dice.length >= 2) {
      const entry = this.doubles.get(t.dice.length) ?? [0, 0];
      entry[0]++;
      if (hasDouble(t.dice)) entry[1]++;
      this.doubles.set(t.dice.length, entry);
    }
  }

  /** The counters as plain data (for the trip back from a worker thread). */
  counts(): DiceCounts {
    return {
      turns: this.turns,
      threeDiceTurns: this.threeDiceTurns,
      passes: this.passes,
      openingTurns: this.openingTurns,
      openingPasses: this.openingPasses,
      faces: [...this.faces],
      invalid: this.invalid,
      doubles: [...this.doubles].map(([n, [turns, count]]) => [n, turns, count]),
    };
  }

  /** Adds counters taken elsewhere (`counts()` of another accumulator). */
  merge(c: DiceCounts): void {
    this.turns += c.turns;
    this.threeDiceTurns += c.threeDiceTurns;
    this.passes += c.passes;
    this.openingTurns += c.openingTurns;
    this.openingPasses += c.openingPasses;
    for (let i = 0; i < 6; i++) this.faces[i] += c.faces[i];
    this.invalid += c.invalid;
    for (const [n, turns, count] of c.doubles) {
      const entry = this.doubles.get(n) ?? [0, 0];
      entry[0] += turns;
      entry[1] += count;
      this.doubles.set(n, entry);
    }
  }

  build(): DiceStats {
    const total = this.faces.reduce((a, b) => a + b, 0);
    const expectedEach = total > 0 ? total / 6 : null;
    const chi = expectedEach === null ? null : chiSquareStatistic(this.faces, this.faces.map(() => expectedEach));
    const byDiceCount: Record<string, Rate> = {};
    let dTurns = 0;
    let dCount = 0;
    let dExpected = 0;
    for (const n of [...this.doubles.keys()].sort((a, b) => a - b)) {
      const [turns, count] = this.doubles.get(n)!;
      const e = expectedDoublesRate(n);
      byDiceCount[String(n)] = rate(count, turns, e, `${n} fair dice`);
      dTurns += turns;
      dCount += count;
      dExpected += turns * e;
    }
    return {
      turns: this.turns,
      pass: rate(this.passes, this.threeDiceTurns, EXPECTED_PASS_RATE, 'seed 001: about 1 roll in 12 (three-dice turns only)'),
      openingPass: rate(this.openingPasses, this.openingTurns, EXPECTED_OPENING_PASS_RATE, '64 of 216 ordered rolls from the start (three-dice turns only)'),
      faces: {
        counts: [...this.faces],
        total,
        invalid: this.invalid,
        expectedEach,
        chiSquare: chi,
        df: 5,
        pValue: chi === null ? null : chiSquareSurvival(chi, 5),
      },
      doubles: {
        ...rate(dCount, dTurns, dTurns > 0 ? dExpected / dTurns : null, 'any two dice equal, fair dice (weighted by dice count)'),
        byDiceCount,
      },
    };
  }
}
