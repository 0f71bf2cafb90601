import { describe, it } from 'vitest';
import { positionsFor, runOracle, SEED } from './run.js';

/**
 * The forms with rolls of their own held to the clean-room oracle: vchess.club's Dice, Gollon's
 * count die and piece-and-count dice, Vegas Fun Chess (docs/rules.md §12–§15): `*` dice, one
 * piece a turn, the step test, the second king, and what recorded faces give a turn.
 */
const DIALECTS = ['vchess-dice', 'gollon-count-die', 'gollon-piece-and-count', 'vegas-fun-chess'];

describe('the rules core agrees with the clean-room oracle (the forms with rolls of their own)', () => {
  it(`turns, first moves, judged turns, positions after them, movable types and rolls, on ${positionsFor(DIALECTS)} random positions and rolls, every option value (seed ${SEED})`, { timeout: 600_000 }, () => {
    runOracle(DIALECTS);
  });
});
