import { describe, expect, it } from 'vitest';
import type { Die, Role } from '../../core/index.js';
import { dialectOf } from '../test-support/dialects.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { prepareDialect, replayGame } from '../../replay/replay-game.js';
import { GameState, TERMINATION_OF, type TurnEngine } from '../../rules/index.js';
import { walkGame } from './game-walk.js';
import { opportunityKind } from './turn-tests.js';

/**
 * `pass.whenNothingMoves` acts only where the side to move has no legal move at all, which
 * generated games from the usual start never reach. So the games here start from crafted
 * positions a turn or two from such a place, and are played at random under each value
 * (each value's own games, so every value has records that conform under it). At each turn
 * end two brute forces are compared with the pairs walkGame counts there:
 * - the judge: the record cut after the turn and given every ending (the game going on among
 *   them), replayed under every value; a pair j>k where k accepts an ending j refuses;
 * - the legal turns: every roll the dice can show listed by each value's engine; where none
 *   gives a non-empty turn and the game goes on under `pass` (no other rule ended it), the
 *   values must differ, and only there (the first such turn end of a record: after it the
 *   record follows one value, and the other values have ended).
 */

const VALUES = ['pass', 'draw', 'loss'] as const;

/** Every roll of `count` dice, in order (the listing does not rely on the engine sorting them). */
function everyRoll(count: number): Role[][] {
  let rolls: Role[][] = [[]];
  for (let i = 0; i < count; i++) rolls = rolls.flatMap((r) => [1, 2, 3, 4, 5, 6].map((f) => [...r, f as Role]));
  return rolls;
}

/** Does no roll give the side to move a turn with a move in it? Listed by the engine, turn by turn. */
function nothingMoves(engine: TurnEngine, game: GameState): boolean {
  return everyRoll(engine.rules.dice.count).every((dice) => engine.legalTurns(game.pos.clone(), dice).every((t) => t.length === 0));
}

/**
 * Random games from `start` under one dialect: each turn a roll (from the types that can move
 * where the dialect draws so), and one of its legal turns, picked at random; a turn after
 * which the opponent has nothing to move is picked half the time when there is one (found by
 * the listing above). Cut at `turns` or where the dialect ends the game.
 */
function randomGames(name: string, sets: string[], start: string, n: number, turns: number, seed: number): GameRecord[] {
  const d = dialectOf(name, sets);
  const ctx = makeContext(d.name, d.rules);
  const template = playGame(ctx, { index: 0, seed: 'template', format: 'ndjson', bots: ['random', 'greedy'], rates: { ...DEFAULT_RATES, timeout: 0 } }).record;
  let x = seed;
  const rand = (k: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % k;
  };
  return Array.from({ length: n }, (_, i) => {
    const g = GameState.start(d.rules, start);
    if (!g.ok) throw new Error(g.error.message);
    const game = g.value;
    const out: GameRecord['turns'] = [];
    while (out.length < turns && !game.outcome) {
      const movable = d.rules.dice.draw === 'movable-types' ? game.movableFaces() : [];
      const faces: Role[] = movable.length > 0 ? movable : [1, 2, 3, 4, 5, 6];
      const dice = Array.from({ length: d.rules.dice.count }, () => faces[rand(faces.length)]);
      const legal = game.legalTurns(dice).map((t) => t.map((m) => game.uci(m)));
      const stalling = legal.filter((moves) => {
        const after = GameState.start(game.engine, game.dfen());
        if (!after.ok || !after.value.playRecorded(dice, moves).ok) return false;
        return nothingMoves(game.engine, after.value);
      });
      const pool = stalling.length > 0 && rand(2) === 0 ? stalling : legal;
      const moves = pool[rand(pool.length)];
      out.push({ ...template.turns[0], side: game.pos.turn === 0 ? 'w' : 'b', dice, moves, fenAfter: null, clockMs: null, thinkingMs: null, diceFlags: null, location: null });
      const v = game.playRecorded(dice, moves);
      if (!v.ok) throw new Error(v.finding.message);
    }
    const o = game.outcome;
    const end = o ? { termination: TERMINATION_OF[o.reason], result: o.result } : { termination: 'resign', result: out.length % 2 ? 'black' : 'white' };
    return { ...template, id: `${start.split(' ')[0]}-${seed}-${i}`, startFen: start, turns: out, events: [], ...end, timeControl: null, fairness: null } as GameRecord;
  });
}

/** Endings a record can be given after a turn: a resignation stands for "the game goes on"; a draw or a win by rule either way (a loss by nothing moving is written as a rule's end). */
function candidates(r: GameRecord, t: number): Array<Pick<GameRecord, 'termination' | 'result'>> {
  const mover = r.turns[t].side === 'w' ? 'white' : 'black';
  const other = mover === 'white' ? 'black' : 'white';
  return [
    { termination: 'resign', result: mover },
    { termination: 'draw_rule', result: 'draw' },
    { termination: 'draw_rule', result: mover },
    { termination: 'draw_rule', result: other },
    { termination: 'stalemate', result: 'draw' },
    { termination: 'checkmate', result: mover },
    { termination: 'king_captured', result: mover },
    { termination: 'draw_agreement', result: 'draw' },
  ] as Array<Pick<GameRecord, 'termination' | 'result'>>;
}

// No check (BrainKing): only a side whose every piece is walled in by its own has nothing to move.
// White on ranks 7 and 8 (no knight: it would jump out), each piece blocked by its own.
const CAGED = 'KBBQRBBR/PPPPPPPP/8/8/8/8/8';
const NO_CHECK_STARTS = [
  // Black to move; white has nothing. A black rook can break in (and be taken), the king walks.
  `${CAGED}/r6k b - - 0 1`,
  // White's last free pawn (or the rook beside it) can still move: after h6h7 white walls itself in.
  'KBBQRBBR/PPPPPPP1/7P/8/8/8/8/r6k w - - 0 1',
  // Black walled in on ranks 1 and 2, white to move with a rook and a king.
  'R6K/8/8/8/8/8/pppppppp/kbbqrbbr w - - 0 1',
  // Both walled in but white's h-pawn: white's move leaves black nothing, and then itself.
  'KBBQRBBR/PPPPPPP1/7P/8/8/8/pppppppp/kbbqrbbr w - - 0 1',
];

// With check: stalemates one move away (a pawn's step, a queen's move), and mates.
const CHECK_STARTS = [
  'k7/8/PK6/8/8/8/8/8 w - - 0 1',
  '7k/8/6K1/8/8/8/4Q3/8 w - - 0 1',
  'k7/2Q5/8/1K6/8/8/8/8 w - - 0 1',
  '6k1/8/6KP/8/8/8/8/8 w - - 0 1',
];

// With check and a king capture that may ignore it: black, checked by a knight pinned to White's
// king, passes on a roll that cannot answer; White's only move then is that knight taking the king.
const PINNED_KNIGHT = 'r7/8/8/8/1k6/1p1b4/NP6/K7 b - - 0 1';

describe('pass.whenNothingMoves against brute force (crafted positions a turn from nothing to move; every ending judged, every roll listed)', () => {
  it.each([
    ['brainking-one-die', [], NO_CHECK_STARTS, true],
    // Stalemate and checkmate come first: the option never acts (nothing to count, and the listing agrees).
    ['wikipedia-two-dice', [], CHECK_STARTS, false],
    ['wikipedia-two-dice', ['draws.stalemate=false'], CHECK_STARTS, true],
    ['wikipedia-two-dice', ['end.checkmate=false', 'draws.stalemate=false'], CHECK_STARTS, true],
    // The knight's capture is a move: nothing-moves must not end the game there (checked where black passed at once).
    ['wikipedia-two-dice', ['kingCaptureIgnoresCheck=true', 'draws.stalemate=false', 'end.checkmate=false'], [PINNED_KNIGHT], null],
  ] as const)('%s %j', (name, sets, starts, findsSome) => {
    expect(opportunityKind('pass.whenNothingMoves')).toBe('outcome');
    const dialects = VALUES.map((v) => dialectOf(name, [...sets, `pass.whenNothingMoves=${v}`]));
    const prepared = dialects.map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    // Each value's own games: 8 from every start, played under it.
    const records = VALUES.flatMap((v, k) => starts.flatMap((s, i) => randomGames(name, [...sets, `pass.whenNothingMoves=${v}`], s, 8, 24, 1000 * k + i + 1)));
    let endsJudged = 0;
    let opportunities = 0;
    let pairsSeen = 0;
    let endedFirst = 0;
    const perValue = VALUES.map(() => 0);
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((d) => replayGame(r, d, index).status === 'conforming');
      expect(conforming.some(Boolean), r.id).toBe(true);
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      const found = walkGame(r, engines[conforming.indexOf(true)], index, [{ path: 'pass.whenNothingMoves', values: VALUES, kind: 'outcome', engines, conforming, wantExample: VALUES.map(() => VALUES.map(() => true)) }], trace);
      expect(found).not.toBeNull();
      // Every value's game, playing the record: the positions and each value's legal turns there.
      const states = engines.map((e) => {
        const g = GameState.start(e, r.startFen);
        if (!g.ok) throw new Error(g.error.message);
        return g.value;
      });
      let stuckBefore = false;
      for (let t = 0; t < r.turns.length; t++) {
        const live = states.filter((s) => !s.outcome);
        if (live.length === 0) break;
        for (const s of live) expect(s.playRecorded(r.turns[t].dice as Die[], r.turns[t].moves).ok, `${r.id} turn ${t + 1}`).toBe(true);
        // Judge: the record cut here, every ending under every value.
        const cut = r.turns.slice(0, t + 1);
        const accepted = prepared.map((d) => candidates(r, t).map((c) => replayGame({ ...r, ...c, turns: cut }, d, index).status === 'conforming'));
        const judged = new Set<string>();
        conforming.forEach((c, j) => {
          if (!c) return;
          VALUES.forEach((_, k) => {
            if (k !== j && accepted[k].some((a, x) => a && !accepted[j][x])) judged.add(`${j}>${k}`);
          });
        });
        const counted = new Set(trace.filter((x) => x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} after turn ${t + 1}`).toEqual([...judged].sort());
        endsJudged++;
        // Listing: every value still playing lists the same answer; `pass` goes on there only if no other rule ended the game.
        const pass = states[0];
        const stuck = states.map((s, k) => (live.includes(s) ? nothingMoves(engines[k], s) : null));
        const known = stuck.filter((x): x is boolean => x !== null);
        expect(new Set(known).size, `${r.id} after turn ${t + 1}: the values list different turns`).toBeLessThanOrEqual(1);
        const isOpportunity = !stuckBefore && pass.outcome === null && known[0] === true;
        expect(judged.size > 0, `${r.id} after turn ${t + 1}: ${isOpportunity ? 'nothing moves, yet no value differs' : 'something moves (or the game ended), yet the values differ'} (${pass.dfen()})`).toBe(isOpportunity);
        if (known[0] === true && pass.outcome !== null) endedFirst++;
        if (known[0] === true) stuckBefore = true;
        if (isOpportunity) {
          // There each value ends the record its own way (goes on; drawn; lost by the side to move), unless a draw
          // a player may claim under `pass` is the draw `draw` forces: every rival of a conforming value, that one aside.
          const all = new Set<string>();
          conforming.forEach((c, j) => c && VALUES.forEach((_, k) => k !== j && !(VALUES[j] === 'draw' && k === 0 && pass.drawClaim) && all.add(`${j}>${k}`)));
          expect([...judged].sort(), `${r.id} after turn ${t + 1}: the pairs where nothing moves`).toEqual([...all].sort());
          opportunities++;
          conforming.forEach((c, j) => c && perValue[j]++);
        }
        pairsSeen += judged.size;
      }
      // The walk's counts are the trace's, and every counted pair has its example.
      found!.turns[0].forEach((row, j) =>
        row.forEach((m, k) => {
          expect(m).toBe(trace.filter((x) => x.value === j && x.rival === k).length);
          if (m > 0) expect(found!.examples[0][j][k]).toMatchObject({ id: r.id, kind: 'outcome' });
        }),
      );
    }
    expect(endsJudged).toBeGreaterThan(100);
    if (findsSome) {
      // Records that conform under each value reach the place: every value's opportunities are tested.
      expect(opportunities).toBeGreaterThan(5);
      for (const n of perValue) expect(n).toBeGreaterThan(0);
      expect(pairsSeen).toBeGreaterThan(10);
    } else if (findsSome === false) {
      // Nothing moved at some turn ends, but stalemate or checkmate ended the game first.
      expect(endedFirst).toBeGreaterThan(5);
      expect(pairsSeen).toBe(0);
    }
    else expect(records.filter((r) => r.turns.length > 1 && r.turns[0].moves.length === 0).length, 'black passed on the pinned knight\'s check').toBeGreaterThan(2);
  }, 600_000);
});
