import { describe, expect, it } from 'vitest';
import { type Die, makeDfen, type Position, type Role } from '../../core/index.js';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { DicePool, GameState, type MaximumReading, parseDialectDfen, TurnEngine } from '../../rules/index.js';
import { bruteForcePairs } from './brute-force.js';
import { canCaptureKingThisTurn } from './king-capture.js';
import { maximumOpportunities } from './maximum.js';
import { turnOpportunities } from './turn-tests.js';

const READINGS: MaximumReading[] = ['path', 'path-all', 'micro-move', 'none'];

const rulesOf = (dialect: string, sets: string[] = []) => {
  const d = loadDialect(dialect, sets);
  if (!d.ok) throw new Error(`${dialect}: ${d.error[0].message}`);
  return d.value;
};
const engineOf = (dialect: string, sets: string[] = []) => new TurnEngine(rulesOf(dialect, sets).rules);

/** Self-played games of `dialect` with `sets` (in memory): reference games mostly end by taking the king. */
function games(dialect: string, sets: string[], n: number, seed: string): GameRecord[] {
  const d = rulesOf(dialect, sets);
  const ctx = makeContext(d.name, d.rules);
  return Array.from({ length: n }, (_, index) => playGame(ctx, { index, seed, format: 'ndjson', bots: ['random', 'greedy'], rates: { ...DEFAULT_RATES, resign: 0, timeout: 0, drawAgreement: 0 } }).record);
}

/** Each turn start of the games (played under `engine`), with its dice and recorded moves. */
function* turnStarts(engine: TurnEngine, records: GameRecord[]): Generator<{ pos: Position; dice: Role[]; moves: string[] }> {
  for (const r of records) {
    const g = GameState.start(engine, r.startFen);
    if (!g.ok) throw new Error(g.error.message);
    for (const t of r.turns) {
      if (g.value.outcome) break;
      yield { pos: g.value.pos.clone(), dice: t.dice as Role[], moves: t.moves };
      const v = g.value.playRecorded(t.dice as Role[], t.moves);
      if (!v.ok) throw new Error(`${r.id}: ${v.finding.message}`);
    }
  }
}

function fastPairs(engine: TurnEngine, pos: Position, dice: readonly Die[], recorded: number): number[][] {
  const out = READINGS.map(() => READINGS.map(() => 0));
  maximumOpportunities(engine, pos, DicePool.of(dice), recorded, READINGS, READINGS.map(() => true), out);
  return out;
}

describe('maximum opportunities against brute force (every sequence judged under every reading)', () => {
  const engines = READINGS.map((r) => engineOf('reference', [`maximum=${r}`]));

  it.each([
    // Every complete line takes the king: path, path-all and micro-move allow the same turns.
    ['1r2r3/1pk5/pP1Bp3/P6p/3p3p/1N1P4/n5b1/2b3K1 w - - 0 22 PQK'],
    ['1r6/2r5/1b2k3/pP4p1/P2PPKPn/8/8/1R3nR1 b - - 1 28 pbb'],
    // The only first move (f3e2) takes the king: the one legal turn under every reading, none included.
    ['3Q2B1/1r6/2b5/4b3/8/5p2/4Kp2/1q3k2 b - - 7 36 ppn'],
  ])('%s', (dfen) => {
    const parsed = parseDialectDfen(engines[0].rules, dfen);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { pos, dice } = parsed.value;
    const brute = bruteForcePairs(engines, pos, dice!);
    expect(brute).not.toBeNull();
    expect(fastPairs(engines[0], pos, dice!, 1)).toEqual(brute!.pairs);
    // None of the three lets a reading allow a turn another forbids among path, path-all and micro-move.
    expect(brute!.pairs.slice(0, 3).map((row) => row.slice(0, 3))).toEqual([
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
  });

  it.each([
    ['path', 'max-path'],
    ['none', 'max-none'],
  ])('generated reference games played under maximum=%s: the counted pairs are the judged ones at every turn start', (reading, seed) => {
    const records = games('reference', [`maximum=${reading}`], 24, seed);
    const walker = engineOf('reference', [`maximum=${reading}`]);
    let compared = 0;
    let capturable = 0;
    let skipped = 0;
    let differing = 0;
    let turn = 0;
    for (const s of turnStarts(walker, records)) {
      // Every turn start where a king can be taken (where the shortcuts differ), one in four of the rest.
      const capture = canCaptureKingThisTurn(walker, s.pos, DicePool.of(s.dice));
      if (!capture && turn++ % 4 !== 0) continue;
      const brute = bruteForcePairs(engines, s.pos, s.dice, 4000);
      if (brute === null) {
        skipped++;
        continue;
      }
      compared++;
      if (capture) capturable++;
      const fast = fastPairs(walker, s.pos, s.dice, s.moves.length);
      expect(fast, makeDfen(s.pos, s.dice)).toEqual(brute.pairs);
      if (brute.pairs.slice(0, 3).some((row) => row.slice(0, 3).some(Boolean))) differing++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(capturable).toBeGreaterThan(30);
    expect(skipped).toBeLessThan(compared / 10);
    void differing;
  }, 600_000);
});

/** Every roll of `count` dice (as multisets: the order does not change what is legal). */
function rolls(count: number, from = 1): Role[][] {
  if (count === 0) return [[]];
  const out: Role[][] = [];
  for (let a = from; a <= 6; a++) for (const rest of rolls(count - 1, a)) out.push([a as Role, ...rest]);
  return out;
}

describe('turn options against brute force (every sequence judged under every value)', () => {
  // Positions where the option matters, each with every roll: castling through a square a
  // bishop attacks (f1 for White, c8 and d8 for Black), and en passant targets after double steps.
  const POSITIONS: Record<string, string[]> = {
    'castling.attacks': ['r3k2r/p6p/8/1b6/6B1/8/P6P/R3K2R w KQkq - 0 1', 'r3k2r/p6p/8/1b6/6B1/8/P6P/R3K2R b KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'],
    'promotion.onKingDie': ['4k3/1P6/8/8/8/8/8/4K3 w - - 0 1', '4k3/8/8/8/8/8/1p6/4K3 b - - 0 1', 'r3k3/1P6/8/8/8/8/6p1/4K2R w - - 0 1'],
    'enPassant.window': ['rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', 'rnbqkbnr/ppp2ppp/8/8/2PpP3/8/PP3PPP/RNBQKBNR b KQkq e3 0 3'],
    // Castling on two dice, counted as one move or two dice: rooks and kings alone, and with a few pieces in the way.
    // A king a rook or a bishop attacks, and pieces pinned to it.
    check: ['4k3/8/8/8/8/8/3r4/R3K3 w Q - 0 1', '4k3/4r3/8/8/1b6/8/3N4/4K2R w K - 0 1', 'r3k3/8/8/1B6/8/8/8/4KR2 b q - 0 1'],
    maximumCounts: ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', 'r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1', '4k3/8/8/8/8/8/6PP/4K2R w K - 0 1'],
  };
  it.each([
    ['castling.attacks', ['ignored', 'orthodox'], 'dicechess-com'],
    ['castling.attacks', ['orthodox', 'ignored'], 'dicechess-com'],
    ['enPassant.window', ['reply-turn', 'first-micro-move'], 'dicechess-com'],
    ['enPassant.window', ['first-micro-move', 'reply-turn'], 'reference'],
    ['castling.dice', ['king', 'rook', 'king-or-rook'], 'brainking-one-die'],
    ['promotion.onKingDie', [false, true], 'brainking-one-die'],
    // The maximum counted in dice or in micro-moves (castling on two dice is one move): both ways round.
    ['maximumCounts', ['dice', 'moves'], 'dicechess-com'],
    ['maximumCounts', ['moves', 'dice'], 'reference'],
    // Check or none: turns that leave one's own king attacked (every pair of the two values is compared at each start).
    ['check', ['none', 'orthodox'], 'dicechess-com'],
  ] as const)('%s %j on %s: the counted pairs are the judged ones', (path, values, dialect) => {
    const engines = values.map((v) => engineOf(dialect, [`${path}=${v}`]));
    const starts: Array<{ pos: Position; dice: Role[]; moves: string[] | null }> = [];
    for (const fen of POSITIONS[path] ?? []) {
      const g = GameState.start(engines[0], fen);
      if (!g.ok) throw new Error(`${fen}: ${g.error.message}`);
      for (const dice of rolls(engines[0].rules.dice.count)) starts.push({ pos: g.value.pos.clone(), dice, moves: null });
    }
    // And the turn starts of games played under the first value (every turn conforms under it).
    starts.push(...turnStarts(engines[0], games(dialect, [`${path}=${values[0]}`], 30, `turn-${path}-${values[0]}`)));
    let compared = 0;
    let cheap = 0;
    let skipped = 0;
    let differing = 0;
    for (const s of starts) {
      const stats = { cheap: 0, exact: 0 };
      const out = values.map(() => values.map(() => 0));
      // A made-up start conforms under both values; a recorded one under the first, and under the second if its turn is legal there.
      const conforming = engines.map((e, j) => j === 0 || s.moves === null || e.judge(s.pos, s.dice, s.moves).ok);
      turnOpportunities(path, values, engines, s.pos, s.dice, s.moves ?? [], conforming, out, stats);
      // Where the cheap test rules the option out, one in eight (the cheap answer is checked too); every other start.
      if (stats.cheap && cheap++ % 8 !== 0) continue;
      const brute = bruteForcePairs(engines, s.pos, s.dice, 20_000);
      if (brute === null) {
        skipped++;
        continue;
      }
      compared++;
      const want = brute.pairs.map((row, j) => row.map((x) => (conforming[j] ? x : 0)));
      expect(out, makeDfen(s.pos, s.dice)).toEqual(want);
      if (want.some((row) => row.some(Boolean))) differing++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(skipped).toBeLessThan(compared / 5);
    // The comparison must have something to find (else it proves nothing).
    expect(differing).toBeGreaterThan(2);
  }, 600_000);
});
