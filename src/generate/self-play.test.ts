import { describe, expect, it } from 'vitest';
import type { Role } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import { prepareDialect, replayGame } from '../replay/replay-game.js';
import { GameState } from '../rules/index.js';
import { allowedDice } from './dice-flags.js';
import { DEFAULT_RATES, makeContext, playGame } from './self-play.js';
import { TurnWalker } from '../rules/turn-walker.js';

const DIALECTS = ['reference', 'dicechess-com', 'beturanga', 'brainking-one-die', 'wikipedia-two-dice', 'chess'];

function setup(name: string) {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(d.error.map((p) => p.message).join('; '));
  return { ctx: makeContext(d.value.name, d.value.rules), judge: prepareDialect(d.value.name, d.value.rules) };
}

const spec = (index: number, seed = 't') => ({ index, seed, format: 'ndjson' as const, bots: ['random', 'greedy'] as const, rates: DEFAULT_RATES });

describe('self-play', () => {
  it('is deterministic: same seed and index, same game', () => {
    const { ctx } = setup('reference');
    const a = playGame(ctx, { ...spec(3), bots: ['random', 'greedy'] });
    const b = playGame(ctx, { ...spec(3), bots: ['random', 'greedy'] });
    expect(JSON.stringify(b.record)).toBe(JSON.stringify(a.record));
    expect(JSON.stringify(playGame(ctx, { ...spec(4), bots: ['random', 'greedy'] }).record)).not.toBe(JSON.stringify(a.record));
  });

  it.each(DIALECTS)('%s: every generated game conforms to its dialect', (name) => {
    const { ctx, judge } = setup(name);
    const terminations = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const g = playGame(ctx, { ...spec(i), bots: ['random', 'greedy'] });
      const line = replayGame(g.record, judge, i);
      expect(line.findings, `game ${i}`).toEqual([]);
      terminations.add(g.record.termination);
      expect(g.record.turns.length).toBe(g.trace.length);
    }
    expect(terminations.size).toBeGreaterThan(1);
  });

  it('dicechess-com: x2 games carry cube negotiations and stakes; reference: fairness reveals', () => {
    const dc = setup('dicechess-com').ctx;
    const games = Array.from({ length: 40 }, (_, i) => playGame(dc, { ...spec(i), bots: ['random', 'greedy'] }).record);
    expect(games.some((g) => g.mode === 'x2' && g.events.some((e) => e.type === 'DOUBLE_ACCEPT'))).toBe(true);
    expect(games.every((g) => g.stakes !== null && g.fairness === null)).toBe(true);
    const ref = playGame(setup('reference').ctx, { ...spec(0), bots: ['random', 'greedy'] }).record;
    expect(ref.fairness?.commit).toMatch(/^[0-9a-f]{64}$/);
    expect(ref.turns.every((t) => t.diceOrder === 'roll' && t.diceFlags !== null)).toBe(true);
  });

  it('dicechess-com with cube.ownership=either: a side that does not own the cube doubles too, and the games conform', () => {
    const d = loadDialect('dicechess-com', ['cube.ownership=either']);
    if (!d.ok) throw new Error(d.error[0].message);
    const ctx = makeContext(d.value.name, d.value.rules);
    const judge = prepareDialect(d.value.name, d.value.rules);
    const rates = { ...DEFAULT_RATES, x2: 1, double: 0.2 };
    const games = Array.from({ length: 30 }, (_, i) => playGame(ctx, { ...spec(i, 'either'), rates }).record);
    // The last taker of a double is the side it was offered to; a later offer by the other side is one only "either" allows.
    const byNonOwner = games.some((g) => {
      let owner: string | null = null;
      return g.events.some((e) => {
        if (e.type === 'DOUBLE_OFFER' && owner !== null && e.actor !== owner) return true;
        if (e.type === 'DOUBLE_ACCEPT') owner = e.actor;
        return false;
      });
    });
    expect(byNonOwner).toBe(true);
    games.forEach((g, i) => expect(replayGame(g, judge, i).status).toBe('conforming'));
  });

  it.each(['reference', 'wikipedia-two-dice', 'brainking-one-die'])('%s: allowed flags agree with the engine on every recorded position', (name) => {
    const { ctx } = setup(name);
    const walker = new TurnWalker(ctx.engine);
    let checked = 0;
    for (let i = 0; i < 6; i++) {
      const g = playGame(ctx, { ...spec(i, 'flags'), bots: ['random', 'greedy'] });
      g.trace.forEach((t, k) => {
        const state = GameState.start(ctx.engine, t.fenBefore);
        if (!state.ok) throw new Error(state.error.message);
        const counts = ctx.engine.spendableDice(state.value.pos, t.roles as Role[]);
        const seen = new Int8Array(7);
        const want = t.roles.map((r) => seen[r]++ < counts[r]);
        walker.begin(state.value.pos, t.roles);
        expect(allowedDice(walker, t.roles), `game ${i} turn ${k + 1} ${t.fenBefore} ${t.roles.join('')}`).toEqual(want);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(50);
  });
});
