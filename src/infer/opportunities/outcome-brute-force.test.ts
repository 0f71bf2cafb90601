import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/index.js';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { prepareDialect, replayGame } from '../../replay/replay-game.js';
import { DicePool, GameState, TERMINATION_OF, TurnEngine } from '../../rules/index.js';
import { bruteForcePairs } from './brute-force.js';
import { canCaptureKingThisTurn } from './king-capture.js';
import { walkGame } from './game-walk.js';
import { opportunityKind, turnOpportunities } from './turn-tests.js';

const dialectOf = (name: string, sets: string[]) => {
  const d = loadDialect(name, sets);
  if (!d.ok) throw new Error(`${name} ${sets.join(' ')}: ${d.error[0].message}`);
  return d.value;
};

function games(name: string, sets: string[], n: number, seed: string): GameRecord[] {
  const d = dialectOf(name, sets);
  const ctx = makeContext(d.name, d.rules);
  const rates = { ...DEFAULT_RATES, resign: 0.1, timeout: 0, drawAgreement: 0 };
  return Array.from({ length: n }, (_, index) => playGame(ctx, { index, seed, format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
}

/**
 * Random games from an endgame start (few pieces, so material runs out), under the
 * dialect: each turn a uniform roll and one of the legal turns (one `prefer` likes, when
 * there is one), as a record; the game is cut at `turns` or where the dialect ends it.
 */
function endgames(name: string, sets: string[], starts: string[], turns: number, seed: number, prefer?: (moves: string[]) => boolean): GameRecord[] {
  const d = dialectOf(name, sets);
  const template = games(name, sets, 1, 'template')[0];
  let x = seed;
  const rand = (n: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  return starts.map((startFen, i) => {
    const g = GameState.start(d.rules, startFen);
    if (!g.ok) throw new Error(g.error.message);
    const out: GameRecord['turns'] = [];
    while (out.length < turns && !g.value.outcome) {
      const dice = Array.from({ length: d.rules.dice.count }, () => 1 + rand(6)) as Role[];
      const legal = g.value.legalTurns(dice, prefer ? undefined : 64);
      const all = legal.map((t) => t.map((m) => g.value.uci(m)));
      // A preferred turn when there is one (still one of the legal turns, picked at random among them).
      const preferred = prefer ? all.filter(prefer) : [];
      const pool = preferred.length > 0 ? preferred : all;
      const moves = pool[rand(pool.length)];
      out.push({ ...template.turns[0], side: g.value.pos.turn === 0 ? 'w' : 'b', dice, moves, fenAfter: null, clockMs: null, thinkingMs: null, diceFlags: null, location: null });
      const v = g.value.playRecorded(dice, moves);
      if (!v.ok) throw new Error(v.finding.message);
    }
    // A game the dialect ended is written with that end; one cut short, as resigned by the side to move.
    const o = g.value.outcome;
    const end = o ? { termination: TERMINATION_OF[o.reason], result: o.result } : { termination: 'resign', result: out.length % 2 ? 'black' : 'white' };
    return { ...template, id: `endgame-${i}`, startFen, turns: out, events: [], ...end, timeControl: null, fairness: null } as GameRecord;
  });
}

/** Endings a record can be given after a turn; a resignation stands for "the game goes on" (no board end, no claim needed); an agreed draw needs draws by agreement. */
function candidates(r: GameRecord, t: number): Array<Pick<GameRecord, 'termination' | 'result'>> {
  const mover = r.turns[t].side === 'w' ? 'white' : 'black';
  const other = mover === 'white' ? 'black' : 'white';
  return [
    { termination: 'resign', result: mover },
    { termination: 'draw_rule', result: 'draw' },
    { termination: 'stalemate', result: 'draw' },
    { termination: 'checkmate', result: mover },
    { termination: 'king_captured', result: mover },
    { termination: 'checkmate', result: other },
    { termination: 'draw_agreement', result: 'draw' },
  ] as Array<Pick<GameRecord, 'termination' | 'result'>>;
}

/**
 * Options whose values change how a game may end (and, for kingCaptureIgnoresCheck, which
 * turns are legal): on generated games, the pairs walkGame counts at each turn end are
 * the pairs the replayer itself tells apart, judging the game cut after that turn with
 * every ending under every value.
 */
// Kings with a minor piece or two and a pawn or a rook to lose: captures leave positions that cannot mate.
const ENDGAMES = [
  '4k3/8/8/3n4/8/2B5/4P3/4K3 w - - 0 1',
  '4k3/8/3b4/8/8/2N5/3r4/4K3 w - - 0 1',
  '2k5/8/8/8/3N4/8/1p6/4K2B w - - 0 1',
  '6k1/5n2/8/8/8/8/2R5/4K3 b - - 0 1',
  '4k3/3p4/8/8/8/8/3B4/4K3 w - - 0 1',
  '8/8/4k3/2n5/8/8/2P5/4K3 w - - 0 1',
];

// Rooks and kings with their rights, the move counter a few moves short of its limit (10 in the test).
const CASTLING_STARTS = [5, 6, 7, 8].flatMap((n) => [`r3k2r/8/8/8/8/8/8/R3K2R w KQkq - ${n} 1`, `r3k2r/8/8/8/8/8/8/R3K2R b KQkq - ${n} 1`, `4k2r/p7/8/8/8/8/7P/R3K3 w Qk - ${n} 1`]);
const castles = (moves: string[]): boolean => moves.some((m) => /^e1[cg]1$|^e8[cg]8$/.test(m));

describe('ending opportunities against brute force (the record cut at a turn end, every ending replayed under every value)', () => {
  // Short limits make draws by rule frequent; the bots claim them as soon as they may.
  const quick = ['draws.moveCounterLimit=10', 'draws.repetition=2', 'draws.turnLimit=200'];
  it.each([
    ['draws.passAdvancesCounter', [false, true], 'wikipedia-two-dice', quick],
    ['draws.repetitionCountsPasses', [false, true], 'wikipedia-two-dice', quick],
    ['draws.ruleDraws', ['automatic', 'claim'], 'wikipedia-two-dice', quick],
    ['draws.ruleDraws', ['claim', 'automatic'], 'wikipedia-two-dice', ['draws.ruleDraws=automatic', ...quick]],
    ['draws.insufficientMaterial', ['none', 'cannot-mate', 'cannot-win'], 'wikipedia-two-dice', ['draws.moveCounterLimit=null', 'draws.repetition=null', 'draws.turnLimit=300']],
    ['kingCaptureIgnoresCheck', [false, true], 'wikipedia-two-dice', quick],
    ['draws.moveCounterLimit', [null, 10, 100], 'wikipedia-two-dice', ['draws.repetition=null', 'draws.turnLimit=200']],
    ['draws.castlingCounts', [1, 2], 'dicechess-com', ['draws.moveCounterLimit=10']],
    ['draws.turnLimit', [null, 30, 60], 'wikipedia-two-dice', ['draws.moveCounterLimit=null', 'draws.repetition=null']],
    ['draws.moveCounterLimit', [null, 10], 'dicechess-com', []],
    ['draws.turnLimit', [null, 40], 'dicechess-com', []],
    ['draws.agreement', [false, true], 'brainking-one-die', []],
    ['draws.agreement', [true, false], 'reference', []],
    ['draws.repetition', [null, 2, 3], 'wikipedia-two-dice', ['draws.moveCounterLimit=null', 'draws.turnLimit=200']],
  ] as const)('%s %j on %s %j', (path, values, name, sets) => {
    expect(opportunityKind(path)).not.toBe('none');
    const dialects = values.map((v) => dialectOf(name, [...sets, `${path}=${JSON.stringify(v).replace(/^"|"$/g, '')}`]));
    const prepared = dialects.map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    const records = games(name, [...sets], 12, `outcome-${path}-${values[0]}`);
    // Material runs out only in endgames, and passes (few piece types to roll) repeat positions there: a few random ones.
    if (['draws.insufficientMaterial', 'draws.repetitionCountsPasses', 'draws.repetition'].includes(path)) records.push(...endgames(name, [...sets, `${path}=${values[0]}`], ENDGAMES, 40, 7));
    // Castling near the move-counter limit: rooks and kings with their rights, nothing to reset the counter.
    if (path === 'draws.castlingCounts') records.push(...endgames(name, [...sets, `${path}=${values[0]}`], CASTLING_STARTS, 8, 11, castles));
    let endsJudged = 0;
    let pairsSeen = 0;
    let turnsJudged = 0;
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((d) => replayGame(r, d, index).status === 'conforming');
      if (!conforming.some(Boolean)) continue;
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      const walker = engines[conforming.indexOf(true)];
      const found = walkGame(r, walker, index, [{ path, values, kind: 'outcome', engines, conforming, wantExample: values.map(() => values.map(() => false)) }], trace);
      expect(found).not.toBeNull();
      // The walk stops where the walker's game ends; so do the cuts.
      const g = GameState.start(walker, r.startFen);
      if (!g.ok) throw new Error(g.error.message);
      for (let t = 0; t < r.turns.length; t++) {
        if (g.value.outcome) break;
        const v = g.value.playRecorded(r.turns[t].dice as Role[], r.turns[t].moves);
        if (!v.ok || !v.complete) break;
        // The last few turn ends of each game and about ten more (each cut is replayed whole).
        // And every turn end where the walk counted a pair (its positives, all checked; its negatives, sampled).
        const step = Math.ceil(r.turns.length / 10);
        if (t < r.turns.length - 4 && t % step !== 0 && !trace.some((x) => x.turn === t + 1)) continue;
        const cut = r.turns.slice(0, t + 1);
        const accepted = prepared.map((d) => candidates(r, t).map((c) => replayGame({ ...r, ...c, turns: cut }, d, index).status === 'conforming'));
        endsJudged++;
        // A rival already ended the game earlier accepts nothing from here on: the walk stops comparing it.
        const expected = new Set<string>();
        conforming.forEach((c, j) => {
          if (!c) return;
          values.forEach((_, k) => {
            if (k !== j && accepted[k].some((a, x) => a && !accepted[j][x])) expected.add(`${j}>${k}`);
          });
        });
        const counted = new Set(trace.filter((x) => x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} after turn ${t + 1}`).toEqual([...expected].sort());
        pairsSeen += expected.size;
      }
      if (path === 'kingCaptureIgnoresCheck') {
        // Its turns too: at each turn start where a king can be taken, the counted pairs are the judged ones.
        const w = GameState.start(walker, r.startFen);
        if (!w.ok) throw new Error(w.error.message);
        for (const turn of r.turns) {
          if (w.value.outcome) break;
          const dice = turn.dice as Role[];
          if (engines.some((e) => canCaptureKingThisTurn(e, w.value.pos, DicePool.of(dice)))) {
            const brute = bruteForcePairs(engines, w.value.pos, dice, 4000);
            if (brute) {
              const out = values.map(() => values.map(() => 0));
              turnOpportunities(path, values, engines, w.value.pos, dice, turn.moves, conforming, out, { cheap: 0, exact: 0 });
              const want = brute.pairs.map((row, j) => row.map((x) => (conforming[j] ? x : 0)));
              expect(out).toEqual(want);
              turnsJudged++;
            }
          }
          const v = w.value.playRecorded(dice, turn.moves);
          if (!v.ok) break;
        }
      }
    }
    expect(endsJudged).toBeGreaterThan(40);
    // Generated games must give the comparison something to find (else it proves nothing).
    if (path !== 'kingCaptureIgnoresCheck') expect(pairsSeen).toBeGreaterThan(0);
    void turnsJudged;
    void TurnEngine;
  }, 600_000);
});

/**
 * The cube options (docs/rules.md §4, ownership and cap): on generated dicechess-com games
 * played in x2 mode with frequent doubles, the pairs walkGame counts at each turn start are
 * the pairs the replayer itself tells apart, judging under every value the record cut before
 * that turn's roll with a double offered there by the side to move.
 */
describe('cube opportunities against brute force (a double offered before each roll, the record judged under every value)', () => {
  const clean = (status: string): boolean => status === 'conforming' || status === 'faulty';
  it.each([
    ['cube.ownership', ['centered-last-taker', 'either'], ['cube.cap=null']],
    ['cube.ownership', ['either', 'centered-last-taker'], ['cube.cap=8']],
    ['cube.cap', [null, 2, 4, 8, 64], ['cube.cap=null']],
    ['cube.cap', [null, 4, 16], ['cube.cap=null', 'cube.ownership=either']],
  ] as const)('%s %j on dicechess-com %j', (path, values, sets) => {
    expect(opportunityKind(path)).toBe('cube');
    const dialects = values.map((v) => dialectOf('dicechess-com', [...sets, `${path}=${v === null ? 'null' : String(v)}`]));
    const prepared = dialects.map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    const d = dialectOf('dicechess-com', [...sets]);
    const ctx = makeContext(d.name, d.rules);
    // Every game in x2 mode, doubles offered often (and mostly taken): the cube changes hands and climbs.
    const rates = { ...DEFAULT_RATES, resign: 0.05, timeout: 0, drawAgreement: 0, x2: 1, double: 0.25 };
    const records = Array.from({ length: 24 }, (_, index) => playGame(ctx, { index, seed: `cube-${path}-${values.join(',')}`, format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
    let startsJudged = 0;
    let pairsSeen = 0;
    let redoubled = 0;
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((p) => clean(replayGame(r, p, index).status));
      if (!conforming.some(Boolean)) continue;
      if (r.events.filter((e) => e.type === 'DOUBLE_ACCEPT').length >= 2) redoubled++;
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      const found = walkGame(r, engines[conforming.indexOf(true)], index, [{ path, values, kind: 'cube', engines, conforming, wantExample: values.map(() => values.map(() => true)) }], trace);
      expect(found).not.toBeNull();
      for (let t = 0; t < r.turns.length; t++) {
        const n = t + 1;
        const before = r.events.filter((e) => e.turn < n || (e.turn === n && e.microMove === null));
        const offer = { type: 'DOUBLE_OFFER' as const, turn: n, microMove: null, actor: r.turns[t].side, bank: null, clockMs: null };
        const what: GameRecord = { ...r, turns: r.turns.slice(0, t), events: [...before, offer], termination: 'unknown', result: null };
        const accepted = prepared.map((p) => clean(replayGame(what, p, index).status));
        startsJudged++;
        const expected = new Set<string>();
        conforming.forEach((c, j) => {
          if (!c) return;
          values.forEach((_, k) => k !== j && accepted[k] && !accepted[j] && expected.add(`${j}>${k}`));
        });
        const counted = new Set(trace.filter((x) => x.turn === n).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} before turn ${n}`).toEqual([...expected].sort());
        pairsSeen += expected.size;
      }
      // The walk's counts are the trace's, and every counted pair has its example.
      found!.turns[0].forEach((row, j) => row.forEach((m, k) => {
        expect(m).toBe(trace.filter((x) => x.value === j && x.rival === k).length);
        if (m > 0) expect(found!.examples[0][j][k]).toMatchObject({ id: r.id, kind: 'cube' });
      }));
    }
    expect(startsJudged).toBeGreaterThan(150);
    expect(redoubled).toBeGreaterThan(2);
    // Generated games must give the comparison something to find (else it proves nothing).
    expect(pairsSeen).toBeGreaterThan(0);
  }, 600_000);
});

/**
 * The clock options: on generated games with an increment, the pairs walkGame counts at each
 * turn are the pairs the replayer tells apart at that turn. The turn's clock reading (and, for
 * a pass, its thinking time) is changed by every amount an increment rule could make (each
 * multiple of the increment up to one per micro-move and one more), and the record judged
 * under every value with the earlier turns' thinking times taken out (so their readings set
 * the clock unchecked, whatever the value): a value accepts the change when it finds nothing
 * up to that turn.
 */
describe("clock opportunities against brute force (each turn's reading changed, judged under every value)", () => {
  const clean = (status: string): boolean => status === 'conforming' || status === 'faulty';
  it.each([
    ['clock.increment', ['per-turn', 'per-micro-move'], true],
    ['clock.increment', ['per-micro-move', 'per-turn'], true],
    ['clock.passEarnsIncrement', [false, true], true],
    ['clock.passEarnsIncrement', [true, false], true],
    // Free passes allow only what passes that take time allow too (a pass of 0 ms): nothing to find that way round.
    ['clock.passesFree', [false, true], false],
    ['clock.passesFree', [true, false], true],
  ] as const)('%s %j on dicechess-com', (path, values, findsSome) => {
    expect(opportunityKind(path)).toBe('clock');
    const dialects = values.map((v) => dialectOf('dicechess-com', ['clock.controls=["300+5"]', `${path}=${String(v)}`]));
    const prepared = dialects.map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    // Played under the first value; games end on the clock, by resignation or on the board, so last turns of every kind come up.
    const ctx = makeContext(dialects[0].name, dialects[0].rules);
    const rates = { ...DEFAULT_RATES, resign: 0.2, timeout: 0.2, drawAgreement: 0.05 };
    const records = Array.from({ length: 14 }, (_, index) => playGame(ctx, { index, seed: `clock-${path}-${values[0]}`, format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
    let turnsJudged = 0;
    let pairsSeen = 0;
    let lastTurns = 0;
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((p) => clean(replayGame(r, p, index).status));
      if (!conforming.some(Boolean)) continue;
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      walkGame(r, engines[conforming.indexOf(true)], index, [{ path, values, kind: 'clock', engines, conforming, wantExample: values.map(() => values.map(() => false)) }], trace);
      const inc = r.timeControl?.incrementMs ?? 0;
      for (let t = 0; t < r.turns.length; t++) {
        const turn = r.turns[t];
        const reading = turn.clockMs?.[turn.side];
        if (reading == null || turn.thinkingMs === null) continue;
        const n = t + 1;
        const pairs = new Set<string>();
        for (const think of turn.moves.length === 0 ? [0, 500] : [turn.thinkingMs]) {
          for (let m = -(turn.moves.length + 1); m <= turn.moves.length + 1; m++) {
            const shift = m * inc - (think - turn.thinkingMs);
            const changed = { ...turn, thinkingMs: think, clockMs: { ...turn.clockMs!, [turn.side]: reading + shift } };
            // Earlier turns lose their thinking times: the judge follows their readings without checking them.
            const turns = r.turns.map((x, u) => (u === t ? changed : u < t ? { ...x, thinkingMs: null } : x));
            const accepts = prepared.map((p) => (replayGame({ ...r, turns }, p, index).findings[0]?.turn ?? Infinity) > n);
            conforming.forEach((c, j) => {
              if (c) values.forEach((_, k) => k !== j && accepts[k] && !accepts[j] && pairs.add(`${j}>${k}`));
            });
          }
        }
        turnsJudged++;
        if (t === r.turns.length - 1) lastTurns++;
        const counted = new Set(trace.filter((x) => x.turn === n).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} turn ${n} of ${r.turns.length} (${r.termination})`).toEqual([...pairs].sort());
        pairsSeen += pairs.size;
      }
    }
    expect(turnsJudged).toBeGreaterThan(150);
    expect(lastTurns).toBeGreaterThan(3);
    // Generated games must give the comparison something to find (else it proves nothing).
    if (findsSome) expect(pairsSeen).toBeGreaterThan(0);
    else expect(pairsSeen).toBe(0);
  }, 600_000);
});
