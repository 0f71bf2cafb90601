import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/index.js';
import { dialectOf, rollMultisets } from '../test-support/dialects.js';
import { prepareDialect } from '../../replay/replay-game.js';
import { GameState } from '../../rules/index.js';
import { bruteForcePairs } from './brute-force.js';
import { turnOpportunities } from './turn-tests.js';

/**
 * The cheap test of the en passant options (no pawn of the side to move can stand beside the
 * target's pawn this turn) against brute force, where the pawn is two or three pawn moves
 * away: a double step and a step, a capture and a step. Every roll, every start compared.
 */
describe('en passant cheap test against brute force (a pawn several pawn moves from the target)', () => {
  const FAR = [
    '4k3/8/8/3p4/8/8/4P3/4K3 w - d6 0 1',
    '4k3/8/8/3p4/8/2n5/1P6/4K3 w - d6 0 1',
    '4k3/8/8/3p4/5n2/6P1/8/4K3 w - d6 0 1',
    '4k3/4p3/8/8/3P4/8/8/4K3 b - d3 0 1',
  ];
  it.each([
    ['enPassant.window', ['first-micro-move', 'reply-turn']],
    ['enPassant.window', ['reply-turn', 'first-micro-move']],
  ] as const)('%s %j on reference', (path, values) => {
    const engines = values.map((v) => prepareDialect('reference', dialectOf('reference', [`${path}=${v}`]).rules).engine);
    let differing = 0;
    for (const fen of FAR) {
      const g = GameState.start(engines[0], fen);
      if (!g.ok) throw new Error(`${fen}: ${g.error.message}`);
      for (const dice of rollMultisets(3)) {
        const out = values.map(() => values.map(() => 0));
        turnOpportunities(path, values, engines, g.value.pos, dice, [], [true, true], out, { cheap: 0, exact: 0 });
        const brute = bruteForcePairs(engines, g.value.pos, dice, 20_000);
        expect(brute).not.toBeNull();
        expect(out, `${fen} ${dice.join('')}`).toEqual(brute!.pairs);
        if (out.some((row) => row.some(Boolean))) differing++;
      }
    }
    expect(differing).toBeGreaterThan(0);
  });
});
