import { expect } from 'vitest';
import { compare, load, randomBoard, randomDice, variantsOfRun } from './compare.js';
import { pick, random } from './positions.js';

/**
 * One oracle run over some dialects: random positions and rolls, every option value, the
 * seed printed (ORACLE_SEED=n reproduces a run, ORACLE_POSITIONS=n sets the size of the
 * whole run, shared between the test files by the number of dialects they cover).
 */
export const SEED = Number(process.env.ORACLE_SEED ?? Date.now() % 1_000_000_007);
const TOTAL = Number(process.env.ORACLE_POSITIONS ?? 20_000);
const MAX_PROBLEMS = Number(process.env.ORACLE_MAX_PROBLEMS ?? 5);

export const positionsFor = (dialects: readonly string[]): number => Math.ceil((TOTAL * dialects.length) / 6);

export function runOracle(dialects: readonly string[]): void {
  const positions = positionsFor(dialects);
  const rng = random(SEED + dialects.length);
  console.log(`oracle: seed ${SEED} (ORACLE_SEED=${SEED} reproduces this run), ${positions} positions of ${dialects.join(', ')}`);
  const variants = variantsOfRun(rng).filter((v) => dialects.includes(v.dialect));
  const byDialect = new Map(dialects.map((d) => [d, variants.filter((v) => v.dialect === d)]));
  const problems: string[] = [];
  let checked = 0;
  const started = Date.now();
  while (checked < positions && problems.length < MAX_PROBLEMS) {
    const variant = pick(rng, byDialect.get(dialects[checked % dialects.length])!);
    const pair = load(variant)!;
    const board = randomBoard(rng, pair.oracle);
    const dice = randomDice(rng, pair.oracle);
    problems.push(...compare({ variant, board, dice }, rng));
    checked++;
  }
  console.log(`oracle: ${checked} positions, ${variants.length} dialect variants, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(problems.slice(0, MAX_PROBLEMS).join('\n\n'), `seed ${SEED}`).toBe('');
  expect(checked).toBe(positions);
  // Every option value of every dialect was drawn into the run.
  expect(dialects.every((d) => byDialect.get(d)!.length > 0)).toBe(true);
}
