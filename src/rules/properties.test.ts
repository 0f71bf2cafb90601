import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeDfen, type Move, parseDfen, type Role, STANDARD_FEN } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import { GameState } from './game.js';
import type { Rules } from './rules.js';

const rulesOf = (name: string): Rules => {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(name);
  return d.value.rules;
};
const REFERENCE = rulesOf('reference');

/** Plays a seeded random legal game; calls `visit` before every turn. */
function randomGame(seed: number[], rules: Rules, visit: (g: GameState, dice: Role[], turns: Move[][]) => void): void {
  const g = GameState.start(rules, STANDARD_FEN);
  if (!g.ok) throw new Error('start');
  const game = g.value;
  let i = 0;
  const next = () => seed[i++ % seed.length];
  for (let t = 0; t < 40 && !game.outcome; t++) {
    const dice = Array.from({ length: rules.dice.count }, () => ((next() % 6) + 1) as Role);
    const turns = game.legalTurns(dice, 2000);
    visit(game, dice, turns);
    game.play(turns[next() % turns.length]);
  }
}

const seeds = fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 8, maxLength: 64 });

describe('turn engine properties (random legal games)', () => {
  it('every enumerated turn is judged legal, and its first move is a legal first micro-move', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        randomGame(seed, REFERENCE, (game, dice, turns) => {
          const before = game.dfen(dice);
          const firsts = new Set(game.legalFirstMicroMoves(dice).map((m) => game.uci(m)));
          for (const turn of turns.slice(0, 30)) {
            const ucis = turn.map((m) => game.uci(m));
            const v = game.engine.judge(game.pos, dice, ucis);
            expect(v.ok, `${before} ${ucis.join(',')}: ${v.ok ? '' : v.finding.message}`).toBe(true);
            if (ucis.length) expect(firsts.has(ucis[0])).toBe(true);
          }
          expect(game.dfen(dice)).toBe(before); // judging leaves the position as it was
        });
      }),
      { numRuns: 15 },
    );
  });
  it('all legal turns of a roll spend the same number of dice unless they capture the king', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        randomGame(seed, REFERENCE, (game, _dice, turns) => {
          const spent = new Set<number>();
          for (const t of turns) {
            const pos = game.pos;
            let dice = 0;
            let captured = false;
            for (const m of t) {
              const target = pos.board[(m >> 6) & 63];
              if (target === 6 || target === -6) captured = true;
              dice += m >> 15 === 3 ? 2 : 1;
            }
            if (!captured) spent.add(dice);
          }
          expect(spent.size).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 15 },
    );
  });
  it('DFEN written mid-game reads back to the same DFEN', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        randomGame(seed, REFERENCE, (game, dice) => {
          const text = game.dfen(dice);
          const back = parseDfen(text);
          expect(back.ok && makeDfen(back.value.pos, back.value.dice)).toBe(text);
        });
      }),
      { numRuns: 10 },
    );
  });
  it('a turn that drops its last micro-move is refused when the full turn spent more dice', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        randomGame(seed, REFERENCE, (game, dice, turns) => {
          const t = turns.find((x) => x.length >= 2);
          if (!t) return;
          const ucis = t.map((m) => game.uci(m));
          const last = game.pos.board[(t[t.length - 1] >> 6) & 63];
          if (last === 6 || last === -6) return;
          const v = game.engine.judge(game.pos, dice, ucis.slice(0, -1));
          expect(v.ok).toBe(false);
          if (!v.ok) expect(v.finding.rule).toBe('maximum.fewer-dice');
        });
      }),
      { numRuns: 10 },
    );
  });
});

describe('game end rules', () => {
  it('plays the docs/rules.md §10.3 sample game to checkmate under wikipedia-two-dice', () => {
    const g = GameState.start(rulesOf('wikipedia-two-dice'), STANDARD_FEN);
    if (!g.ok) throw new Error('start');
    const turns: Array<[Role[], string[]]> = [
      [[1, 1], ['e2e4']], [[2, 3], ['b8c6']], [[3, 4], ['f1c4']], [[4, 5], ['a8b8']], [[3, 6], ['c4f7']],
      [[2, 4], []], [[2, 4], ['g1h3']], [[1, 3], []], [[2, 4], ['h3g5']],
    ];
    for (const [dice, moves] of turns) expect(g.value.playRecorded(dice, moves).ok).toBe(true);
    expect(g.value.outcome).toEqual({ result: 'white', reason: 'checkmate' });
  });
});
