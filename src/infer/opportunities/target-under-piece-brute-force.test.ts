import { describe, expect, it } from 'vitest';
import { makeDfen, PAWN, type Role } from '../../core/index.js';
import { dialectOf, rollMultisets } from '../test-support/dialects.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { mayEndPartway, prepareDialect, replayGame } from '../../replay/replay-game.js';
import { GameState, TERMINATION_OF } from '../../rules/index.js';
import { bruteForcePairs } from './brute-force.js';
import { walkGame } from './game-walk.js';
import { opportunityKind, turnOpportunities } from './turn-tests.js';

/**
 * `enPassant.targetUnderPiece` (docs/rules.md §1): a target a piece lands on dies under
 * `dies` and lives on under `survives`, so the same recorded turns can leave the values
 * different turn starts (a target only one of them keeps). Each value's turn start is its own
 * game's; at each, every micro-move sequence either value could record is judged as a whole
 * turn by each value at its own position, and the pairs the counter finds must be those.
 */

// A knight can land on the target beside a pawn that could take it, leave, and let the pawn take
// (the mover's own piece on the target); a target the double step's own side stood a bishop on
// (kept only under `survives`): taken, the taker gone, the pawn takes; both colours.
const POSITIONS = [
  '4k3/8/8/3pP3/2N5/8/8/4K3 w - d6 0 1',
  '4k3/8/3b4/3pP3/1B6/8/8/4K3 w - d6 0 1',
  '4k3/8/8/2n5/3Pp3/8/8/4K3 b - d3 0 1',
  '4k3/8/8/1b6/3Pp3/3B4/8/4K3 b - d3 0 1',
];

// Starts a double step away from a target beside an enemy pawn, with knights and bishops near its square.
const STARTS = [
  'r3k3/3p4/1n6/4P3/2N5/8/8/4K2R b - - 0 1',
  '4k2r/8/8/8/3p4/1n2B3/4P3/R3K3 w - - 0 1',
  '4k3/2ppp3/8/1N1P1P2/8/8/8/4K3 b - - 0 1',
  '4k3/8/8/8/1n1p1p2/8/2PPP3/4K3 w - - 0 1',
];

/**
 * Random games from `start` under `sets`: each turn a uniform roll (the first one `firstRoll` when given) and one of its legal turns,
 * half the time (when there is one) a turn that double-steps a pawn or lands on a target.
 */
function randomGames(sets: string[], start: string, n: number, turns: number, seed: number, firstRoll?: Role[]): GameRecord[] {
  const d = dialectOf('reference', sets);
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
      const dice = out.length === 0 && firstRoll ? firstRoll : Array.from({ length: d.rules.dice.count }, () => (1 + rand(6)) as Role);
      const legal = game.legalTurns(dice, 2000);
      const targets = game.pos.ep;
      const lively = legal.filter((t) =>
        t.some((m) => {
          const from = m & 63;
          const to = (m >> 6) & 63;
          return (Math.abs(game.pos.board[from]) === PAWN && Math.abs(to - from) === 16) || (targets !== 0 && (to >> 3 === 2 || to >> 3 === 5));
        }),
      );
      const pool = lively.length > 0 && rand(2) === 0 ? lively : legal;
      const moves = pool[rand(pool.length)].map((m) => game.uci(m));
      out.push({ ...template.turns[0], side: game.pos.turn === 0 ? 'w' : 'b', dice, moves, fenAfter: null, clockMs: null, thinkingMs: null, diceFlags: null, location: null });
      const v = game.playRecorded(dice, moves);
      if (!v.ok) throw new Error(v.finding.message);
    }
    const o = game.outcome;
    const end = o ? { termination: TERMINATION_OF[o.reason], result: o.result } : { termination: 'resign', result: out.length % 2 ? 'black' : 'white' };
    return { ...template, id: `${start.split(' ')[0]}-${seed}-${i}`, startFen: start, turns: out, events: [], ...end, timeControl: null, fairness: null } as GameRecord;
  });
}

describe('enPassant.targetUnderPiece against brute force (each value at its own turn start, every sequence judged by every value)', () => {
  it.each([[['dies', 'survives']], [['survives', 'dies']]] as const)('%j on reference', (values) => {
    expect(opportunityKind('enPassant.targetUnderPiece')).toBe('turn');
    const dialects = values.map((v) => dialectOf('reference', [`enPassant.targetUnderPiece=${v}`]));
    const prepared = dialects.map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);

    // Made-up turn starts, every roll: each value reads the DFEN itself (a target under a piece only `survives` keeps).
    let differing = 0;
    let compared = 0;
    for (const fen of POSITIONS) {
      const positions = engines.map((e) => {
        const g = GameState.start(e, fen);
        if (!g.ok) throw new Error(`${fen}: ${g.error.message}`);
        return g.value.pos;
      });
      for (const dice of rollMultisets(3)) {
        const out = values.map(() => values.map(() => 0));
        turnOpportunities('enPassant.targetUnderPiece', values, engines, positions[0], dice, [], [true, true], out, { cheap: 0, exact: 0 }, positions);
        const brute = bruteForcePairs(engines, positions, dice, 20_000);
        expect(brute, `${fen} ${dice.join('')}`).not.toBeNull();
        expect(out, `${fen} ${dice.join('')}`).toEqual(brute!.pairs);
        compared++;
        if (out.some((row) => row.some(Boolean))) differing++;
      }
    }
    expect(compared).toBe(POSITIONS.length * 56);
    // Each position has its roll (two of the knight or bishop and a pawn) where only `survives` lets the pawn take.
    expect(differing).toBeGreaterThanOrEqual(POSITIONS.length);

    // Games: each value's own, from starts a double step from a target; the counted pairs at every turn start are the judged ones.
    const records = values.flatMap((v, k) => [
      ...STARTS.flatMap((s, i) => randomGames([`enPassant.targetUnderPiece=${v}`], s, 6, 12, 100 * k + i + 1)),
      // The made-up starts as games, opened with the roll that lets the pawn take under `survives` only.
      ...POSITIONS.flatMap((s, i) => randomGames([`enPassant.targetUnderPiece=${v}`], s, 4, 6, 100 * k + 50 + i, [1, i % 2 === 0 ? 2 : 3, i % 2 === 0 ? 2 : 3] as Role[])),
    ]);
    const d = dialectOf('reference', []);
    const ctx = makeContext(d.name, d.rules);
    records.push(...Array.from({ length: 6 }, (_, index) => playGame(ctx, { index, seed: `ep-under-${values[0]}`, format: 'ndjson', bots: ['random', 'greedy'], rates: { ...DEFAULT_RATES, resign: 0, timeout: 0, drawAgreement: 0 } }).record));
    let startsJudged = 0;
    let skipped = 0;
    let pairsSeen = 0;
    let diverged = 0;
    const conformingUnder = values.map(() => 0);
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((p) => replayGame(r, p, index).status === 'conforming');
      if (!conforming.some(Boolean)) continue;
      conforming.forEach((c, j) => c && conformingUnder[j]++);
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      const found = walkGame(r, engines[conforming.indexOf(true)], index, [{ path: 'enPassant.targetUnderPiece', values, kind: 'turn', engines, conforming, wantExample: values.map(() => values.map(() => true)) }], trace);
      expect(found).not.toBeNull();
      // Each value's own game along the record (gone once it refuses a turn).
      const games: Array<GameState | null> = engines.map((e) => {
        const g = GameState.start(e, r.startFen);
        if (!g.ok) throw new Error(g.error.message);
        return g.value;
      });
      for (let t = 0; t < r.turns.length; t++) {
        const turn = r.turns[t];
        const dice = turn.dice as Role[];
        const live = games.map((g) => g !== null && !g.outcome);
        if (!live.some(Boolean)) break;
        // A last turn that may stop part-way is not a turn start the counter compares.
        const last = mayEndPartway(r, t);
        if (live.every(Boolean) && games[0]!.pos.ep !== games[1]!.pos.ep) diverged++;
        if (!last && live.every(Boolean)) {
          const brute = bruteForcePairs(engines, games.map((g) => g!.pos), dice, 4000);
          if (brute === null) skipped++;
          else {
            const want = brute.pairs.map((row, j) => row.map((n) => (conforming[j] ? n : 0)));
            const counted = values.map((_, j) => values.map((__, k) => trace.filter((x) => x.turn === t + 1 && x.value === j && x.rival === k).length));
            expect(counted, `${r.id} turn ${t + 1} ${makeDfen(games[0]!.pos, dice)}`).toEqual(want);
            startsJudged++;
            pairsSeen += want.flat().reduce((a, b) => a + b, 0);
          }
        }
        games.forEach((g, k) => {
          if (!g || g.outcome) return;
          const v = g.playRecorded(dice, turn.moves, { partial: last });
          if (!v.ok) games[k] = null;
        });
      }
      // The walk's counts are the trace's, and every counted pair has its example.
      found!.turns[0].forEach((row, j) =>
        row.forEach((m, k) => {
          expect(m).toBe(trace.filter((x) => x.value === j && x.rival === k).length);
          if (m > 0) expect(found!.examples[0][j][k]).toMatchObject({ id: r.id, kind: 'turn' });
        }),
      );
    }
    expect(startsJudged).toBeGreaterThan(200);
    expect(skipped).toBeLessThan(startsJudged / 10);
    for (const n of conformingUnder) expect(n).toBeGreaterThan(5);
    // Generated games must give the comparison something to find, and reach turn starts the values see differently.
    expect(pairsSeen).toBeGreaterThan(2);
    expect(diverged).toBeGreaterThan(0);
  }, 600_000);
});
