import { describe, expect, it } from 'vitest';
import { makeDfen, type Position, type Role } from '../../core/index.js';
import { loadDialect } from '../../dialects/index.js';
import { readRecords } from '../../records/index.js';
import { DicePool, GameState, type MaximumReading, TurnEngine } from '../../rules/index.js';
import { canCaptureKingThisTurn } from './king-capture.js';
import { maximumOpportunities } from './maximum.js';
import { turnOpportunities } from './turn-tests.js';

/** The turn starts of a bundled sample corpus (games made by `generate`, not recorded play), as positions with their dice. */
async function turnStarts(file: string, dialect: string, limit: number): Promise<Array<{ pos: Position; dice: Role[]; moves: string[] }>> {
  const d = loadDialect(dialect);
  if (!d.ok) throw new Error(dialect);
  const engine = new TurnEngine(d.value.rules);
  const out: Array<{ pos: Position; dice: Role[]; moves: string[] }> = [];
  for await (const item of readRecords([file])) {
    if (item.kind !== 'record') continue;
    const g = GameState.start(engine, item.record.startFen);
    if (!g.ok) continue;
    for (const t of item.record.turns) {
      if (g.value.outcome || out.length >= limit) break;
      out.push({ pos: g.value.pos.clone(), dice: t.dice as Role[], moves: t.moves });
      const v = g.value.playRecorded(t.dice as Role[], t.moves);
      if (!v.ok) break;
    }
    if (out.length >= limit) break;
  }
  return out;
}

const engineOf = (dialect: string, sets: string[] = []) => {
  const d = loadDialect(dialect, sets);
  if (!d.ok) throw new Error(dialect);
  return new TurnEngine(d.value.rules);
};

describe('opportunity tests agree with the exhaustive comparison', () => {
  it('the cheap king-capture test never rules out a capture the engine finds', async () => {
    const engine = engineOf('reference');
    for (const s of await turnStarts('corpora/samples/reference/games.ndjson.gz', 'reference', 3000)) {
      const pool = DicePool.of(s.dice);
      expect(canCaptureKingThisTurn(engine, s.pos, pool), makeDfen(s.pos, s.dice)).toBe(engine.canCaptureKing(s.pos, DicePool.of(s.dice), 0));
    }
  }, 120_000);

  it('maximum: the shortcuts give the same pairs as classifying every sequence', async () => {
    const engine = engineOf('reference');
    const readings: MaximumReading[] = ['path', 'path-all', 'micro-move', 'none'];
    const all = [true, true, true, true];
    let capturable = 0;
    for (const s of await turnStarts('corpora/samples/reference/games.ndjson.gz', 'reference', 1500)) {
      const fast = readings.map(() => [0, 0, 0, 0]);
      const slow = readings.map(() => [0, 0, 0, 0]);
      maximumOpportunities(engine, s.pos, DicePool.of(s.dice), s.moves.length, readings, all, fast);
      maximumOpportunities(engine, s.pos, DicePool.of(s.dice), s.moves.length, readings, all, slow, true);
      expect(fast, makeDfen(s.pos, s.dice)).toEqual(slow);
      if (canCaptureKingThisTurn(engine, s.pos, DicePool.of(s.dice))) capturable++;
    }
    expect(capturable).toBeGreaterThan(20);
  }, 240_000);

  it('maximum: a turn spending the most dice shows path-all and micro-move only where a king could be taken', () => {
    // docs/rules.md §3: path accepts [a2a3], path-all only the line that takes the king's knight route.
    const engine = engineOf('reference');
    const parsed = GameState.start(engine, '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1');
    if (!parsed.ok) throw new Error('fen');
    const out = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    maximumOpportunities(engine, parsed.value.pos, DicePool.of([1, 2, 2]), 2, ['path', 'path-all', 'micro-move', 'none'], [true, true, true, true], out);
    // path-all and micro-move forbid [a2a3], which path allows; path forbids nothing they allow.
    expect(out[1][0]).toBe(1);
    expect(out[2][0]).toBe(1);
    expect(out[0]).toEqual([0, 0, 0, 1]);
    expect(out[3]).toEqual([0, 0, 0, 0]);
  });

  it.each([
    ['enPassant.window', ['reply-turn', 'first-micro-move'], 'reference'],
    ['castling.attacks', ['ignored', 'orthodox'], 'dicechess-com'],
    ['kingCaptureExempt', [true, false], 'reference'],
  ] as const)('%s: where the cheap test says the option cannot matter, the legal turns are the same', async (path, values, dialect) => {
    const engines = values.map((v) => engineOf(dialect, [`${path}=${String(v)}`]));
    const file = dialect === 'reference' ? 'corpora/samples/reference/games.ndjson.gz' : 'corpora/samples/dicechess-com/games.state-maps.ndjson.gz';
    let cheap = 0;
    let exact = 0;
    for (const s of await turnStarts(file, dialect, 600)) {
      const stats = { cheap: 0, exact: 0 };
      const out = values.map(() => values.map(() => 0));
      turnOpportunities(path, values, engines, s.pos, s.dice, s.moves, [true, true], out, stats);
      if (stats.cheap) {
        cheap++;
        const keys = engines.map((e) => new Set(e.legalTurns(s.pos, s.dice).map((t) => t.join(','))));
        expect([...keys[0]].sort(), makeDfen(s.pos, s.dice)).toEqual([...keys[1]].sort());
      } else exact++;
    }
    expect(cheap).toBeGreaterThan(100);
    // The cheap test does not decide everything: some starts still need the exact one.
    expect(exact).toBeGreaterThan(0);
  }, 240_000);
});
