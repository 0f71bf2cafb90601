import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { prepareDialect, replayGame } from '../replay/replay-game.js';
import { DEFAULT_RATES, makeContext, playGame } from './self-play.js';

function setup(name: string) {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(d.error.map((p) => p.message).join('; '));
  return { rules: d.value.rules, ctx: makeContext(d.value.name, d.value.rules), judge: prepareDialect(d.value.name, d.value.rules) };
}

const spec = (index: number) => ({ index, seed: 'forms', format: 'ndjson' as const, bots: ['random', 'greedy'] as const, rates: DEFAULT_RATES });
const GAMES = 15;

/** Generates games under a dialect; each must conform to it. */
function conformingGames(name: string) {
  const { rules, ctx, judge } = setup(name);
  const games = [];
  for (let i = 0; i < GAMES; i++) {
    const g = playGame(ctx, spec(i));
    expect(replayGame(g.record, judge, i).findings, `${name} game ${i}`).toEqual([]);
    games.push(g.record);
  }
  return { rules, games };
}

describe('the forms with their own rolls: generated games conform, and show their rules', () => {
  it('vchess-dice: no die on the first turn, one die on every other', () => {
    const { games } = conformingGames('vchess-dice');
    for (const g of games) {
      expect(g.turns[0].dice).toEqual([]);
      for (const t of g.turns.slice(1)) expect(t.dice).toHaveLength(1);
    }
  });

  it('vchess-dice: the generator promotes a pawn to a second king on a king die, and the game conforms', () => {
    const { ctx, judge } = setup('vchess-dice');
    let found = -1;
    for (let i = 0; i < 200 && found < 0; i++) {
      const g = playGame(ctx, spec(i)).record;
      if (g.turns.some((t) => t.moves.some((m) => m.length === 5 && m[4] === 'k'))) {
        expect(replayGame(g, judge, i).findings, `vchess-dice game ${i}`).toEqual([]);
        const t = g.turns.find((x) => x.moves.some((m) => m.length === 5 && m[4] === 'k'))!;
        expect(t.dice).toEqual([6]);
        found = i;
      }
    }
    expect(found).toBeGreaterThanOrEqual(0);
  });

  it('gollon-count-die: as many micro-moves as the count die says, a game\'s end aside', () => {
    const { rules, games } = conformingGames('gollon-count-die');
    let full = 0;
    for (const g of games) {
      for (const t of g.turns) {
        expect(t.moves.length).toBeLessThanOrEqual(rules.dice.counts[t.dice[0] - 1]);
        if (t.moves.length === rules.dice.counts[t.dice[0] - 1]) full++;
      }
    }
    expect(full).toBeGreaterThan(0);
  });

  it('gollon-piece-and-count: one piece makes the turn\'s micro-moves', () => {
    const { games } = conformingGames('gollon-piece-and-count');
    for (const g of games) for (const t of g.turns) for (let k = 1; k < t.moves.length; k++) expect(t.moves[k].slice(0, 2)).toBe(t.moves[k - 1].slice(2, 4));
  });

  it('vegas-fun-chess: two dice, or none on a turn in or after check', () => {
    const { games } = conformingGames('vegas-fun-chess');
    let free = 0;
    for (const g of games) {
      for (const t of g.turns) {
        expect([0, 2]).toContain(t.dice.length);
        if (t.dice.length === 0) free++;
      }
    }
    expect(free).toBeGreaterThan(0);
  });

  it("a game of one form diverges under another: the dice say different things", () => {
    const { ctx } = setup('gollon-count-die');
    const { judge } = setup('reference');
    const games = [0, 1, 2].map((i) => playGame(ctx, spec(i)).record);
    expect(games.every((g, i) => replayGame(g, judge, i).findings.length > 0)).toBe(true);
  });
});
