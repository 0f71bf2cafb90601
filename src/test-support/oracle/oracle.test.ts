import { describe, expect, it } from 'vitest';
import { compare, DIALECTS, load, randomBoard, randomDice, variantsOfRun } from './compare.js';
import { pick } from './positions.js';
import { random } from './positions.js';

/**
 * The core's turns, first micro-moves, judging of recorded turns, positions after a turn and
 * movable types, held to the clean-room oracle (docs/rules.md §12) over random positions,
 * rolls, dialects and option values. ORACLE_SEED=n reproduces a run; ORACLE_POSITIONS=n
 * changes its size.
 */
const SEED = Number(process.env.ORACLE_SEED ?? Date.now() % 1_000_000_007);
const POSITIONS = Number(process.env.ORACLE_POSITIONS ?? 20_000);

describe('the rules core agrees with the clean-room oracle', () => {
  it(`on ${POSITIONS} random positions and rolls, every dialect and option value (seed ${SEED})`, () => {
    console.log(`oracle: seed ${SEED} (ORACLE_SEED=${SEED} reproduces this run), ${POSITIONS} positions`);
    const rng = random(SEED);
    const problems: string[] = [];
    const perDialect = new Map<string, number>(DIALECTS.map((d) => [d, 0]));
    let checked = 0;
    const started = Date.now();
    const variants = variantsOfRun(rng);
    const byDialect = new Map(DIALECTS.map((d) => [d, variants.filter((v) => v.dialect === d)]));
    while (checked < POSITIONS && problems.length < Number(process.env.ORACLE_MAX_PROBLEMS ?? 5)) {
      const variant = pick(rng, byDialect.get(DIALECTS[checked % DIALECTS.length])!);
      const pair = load(variant);
      if (!pair) continue;
      const board = randomBoard(rng, pair.oracle);
      const dice = randomDice(rng, pair.oracle);
      problems.push(...compare({ variant, board, dice }, rng));
      perDialect.set(variant.dialect, perDialect.get(variant.dialect)! + 1);
      checked++;
    }
    console.log(`oracle: ${checked} positions in ${((Date.now() - started) / 1000).toFixed(1)} s: ${[...perDialect].map(([d, n]) => `${d} ${n}`).join(', ')}`);
    expect(problems.slice(0, Number(process.env.ORACLE_MAX_PROBLEMS ?? 5)).join('\n\n'), `seed ${SEED}`).toBe('');
    expect(checked).toBe(POSITIONS);
  });
});
