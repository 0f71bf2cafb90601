import { describe, it } from 'vitest';
import { positionsFor, runOracle, SEED } from './run.js';

/** The three-dice dialects (a die per micro-move, the maximum rule) held to the clean-room oracle: docs/rules.md §3, §12. */
const DIALECTS = ['reference', 'dicechess-com', 'beturanga'];

describe('the rules core agrees with the clean-room oracle (three-dice dialects)', () => {
  it(`turns, first micro-moves, judged turns and positions after them, on ${positionsFor(DIALECTS)} random positions and rolls, every option value (seed ${SEED})`, { timeout: 600_000 }, () => {
    runOracle(DIALECTS);
  });
});
