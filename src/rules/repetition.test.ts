import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Move, positionKey } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import { GameState } from './game.js';
import type { Rules } from './rules.js';
import { TurnEngine } from './turn-engine.js';

const rulesOf = (overrides: string[]): Rules => {
  const d = loadDialect('chess', overrides);
  if (!d.ok) throw new Error(JSON.stringify(d.error));
  return d.value.rules;
};

/** Repetition limits to end a game at, drawn automatically; no move counter, so games run long. */
const LIMITS = [2, 3, 4, 6, 9, 40];
const ENGINES = LIMITS.map((n) => new TurnEngine(rulesOf([`draws.repetition=${n}`, 'draws.ruleDraws=automatic', 'draws.moveCounterLimit=null'])));

/** Kings and rooks only: captures are rare, positions come back when a piece steps back. */
const START = 'r3k3/8/8/8/8/8/8/4K2R w - - 0 1';

/**
 * Plays one random game (a choice per ply: a fresh move, or back where the mover came
 * from) and returns, per ply, the position's key; the game states of every limit follow it.
 */
function play(choices: number[]): { keys: number[]; endedAt: (number | null)[]; byRepetition: boolean[] } {
  const games = ENGINES.map((e) => {
    const g = GameState.start(e, START);
    if (!g.ok) throw new Error(g.error.message);
    return g.value;
  });
  const endedAt: (number | null)[] = games.map(() => null);
  const byRepetition = games.map(() => false);
  const keys = [positionKey(games[0].pos)];
  const last: (Move | null)[] = [null, null];
  for (let ply = 0; ply < choices.length; ply++) {
    // The longest-running game leads: the others play the same moves until they end.
    const lead = games[games.length - 1];
    const legal = lead.legalTurns([]).map((t) => t[0]);
    if (legal.length === 0) break;
    const mover = lead.pos.turn;
    const prev = last[mover];
    // Stepping back: the reverse of the mover's previous move, when legal now.
    const back = prev === null ? undefined : legal.find((m) => (m & 63) === ((prev >> 6) & 63) && ((m >> 6) & 63) === (prev & 63));
    const m = back !== undefined && choices[ply] % 3 !== 0 ? back : legal[choices[ply] % legal.length];
    last[mover] = m;
    for (let i = 0; i < games.length; i++) {
      if (endedAt[i] !== null) continue;
      games[i].play([m]);
      const outcome = games[i].outcome;
      if (outcome) {
        endedAt[i] = ply + 1;
        byRepetition[i] = outcome.reason === 'repetition';
      }
    }
    keys.push(positionKey(lead.pos));
    if (lead.outcome && lead.outcome.reason !== 'repetition') break;
  }
  return { keys, endedAt, byRepetition };
}

describe('repetition counts in a game', () => {
  it('end each game at the first position seen as often as its limit, over long games', () => {
    let longest = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 300, maxLength: 700 }), (choices) => {
        const { keys, endedAt, byRepetition } = play(choices);
        longest = Math.max(longest, keys.length);
        // The reference: a Map over every key so far.
        const counts = new Map<number, number>();
        const firstAt = LIMITS.map(() => null as number | null);
        keys.forEach((k, ply) => {
          const seen = (counts.get(k) ?? 0) + 1;
          counts.set(k, seen);
          LIMITS.forEach((limit, i) => {
            if (ply > 0 && firstAt[i] === null && seen >= limit) firstAt[i] = ply;
          });
        });
        LIMITS.forEach((_, i) => {
          const ended = endedAt[i];
          // Ended otherwise (mate, stalemate, bare kings): the limit was not reached before.
          if (ended !== null && !byRepetition[i]) expect(firstAt[i] === null || firstAt[i]! > ended).toBe(true);
          else expect(ended).toBe(firstAt[i]);
        });
      }),
      { numRuns: 40, seed: 12 },
    );
    // Some games are long: the counts' table grows a few times.
    expect(longest).toBeGreaterThan(300);
  });
});
