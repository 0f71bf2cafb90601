import { describe, it } from 'vitest';
import { positionsFor, runOracle, SEED } from './run.js';

/** The one-move dialects (two dice, one die, no dice) held to the clean-room oracle: docs/rules.md §6–§8, §12. */
const DIALECTS = ['wikipedia-two-dice', 'brainking-one-die', 'chess'];

describe('the rules core agrees with the clean-room oracle (one-move dialects)', () => {
  it(`turns, first moves, judged turns, positions after them and movable types, on ${positionsFor(DIALECTS)} random positions and rolls, every option value (seed ${SEED})`, { timeout: 600_000 }, () => {
    runOracle(DIALECTS);
  });
});
