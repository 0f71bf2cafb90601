import { type Die, makeDiceLetters, type Move, type Position, type Role } from '../../core/index.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { judgeFairness, mayEndPartway } from '../../replay/replay-game.js';
import { earnedIncrementMs } from '../../replay/clock-rule.js';
import { DicePool, GameState, stepMovableRoles, TERMINATION_OF, type TurnEngine } from '../../rules/index.js';
import type { OpportunityExample } from '../tally.js';
import { witnessTurn } from './brute-force.js';
import { cubeAllowed, cubeOpportunities, CubeTrack } from './cube.js';
import { declineAllowed, declineOpportunities } from './decline.js';
import { allowedRolls, faceOdds, rollAllowed, rollOpportunities } from './roll.js';
import { countsOutcomes, countsTurns, divergesPositions, type OpportunityKind, type TurnTestStats, turnOpportunities } from './turn-tests.js';

/** What one game's walk found, per option: [value][rival] counts of turns, and an example per pair not yet known. */
export interface GameOpportunities {
  turns: number[][][];
  /**
   * Options whose freedom is the dice's (`roll`): [value][rival] the sum, over the opportunities,
   * of −log10 of the chance under the rival's dice that the roll falls among those the value
   * allows (in millionths), and the largest single term (the game's strongest roll).
   */
  chance: number[][][];
  chanceMax: number[][][];
  examples: Array<Array<Array<OpportunityExample | null>>>;
  stats: TurnTestStats;
}

export interface WalkOption {
  path: string;
  values: readonly unknown[];
  kind: OpportunityKind;
  /** The engines of the option's values (value order). */
  engines: readonly TurnEngine[];
  /** Does the game conform under each value? */
  conforming: readonly boolean[];
  /** [value][rival]: an example is still wanted (none kept yet in this batch). */
  wantExample: readonly (readonly boolean[])[];
}


/**
 * The endings a value lets a record have after a turn: the dialect's own end when it ends
 * the game (the record must stop there, so written as the record writes it), else the game
 * goes on, or stops by a draw a player may claim there, or (with draws by agreement) by a
 * draw the players agree. Two values that give the same record the same ending cannot be
 * told apart at that turn, whatever their reasons.
 */
function endingsOf(game: GameState): string[] {
  const o = game.outcome;
  if (o) return [`${TERMINATION_OF[o.reason]} ${o.result}`];
  const out = ['goes on'];
  const claim = game.drawClaim;
  if (claim) out.push(`${TERMINATION_OF[claim.reason]} draw`);
  if (game.engine.rules.draws.agreement) out.push('draw_agreement draw');
  return out;
}

/** Is this recorded turn complete (not cut short)? Judged without playing it. */
function isComplete(game: GameState, dice: readonly Die[], moves: readonly string[]): boolean {
  const v = game.engine.judge(game.pos, dice, moves, { partial: true });
  return v.ok && v.complete;
}

/**
 * Walks a game once (its turns are legal under every value it conforms under, so the
 * positions are the same under all of them, but for options whose values leave different
 * positions: those play one game per value along) and counts, per option, the turns at which a
 * rival value would have allowed what a conforming value forbids: a turn (`turn`), a clock
 * reading (`clock`), an ending at the turn's end (`outcome`), a double offered before the
 * turn's roll (`cube`), the turn's roll (`roll`); once per game, the cost a declined double
 * that ended it may be stated at (`decline`). Once per turn and pair. `trace` (for tests)
 * gets each count, those at a turn's start marked `start`.
 */
export function walkGame(record: GameRecord, walker: TurnEngine, index: number, options: readonly WalkOption[], trace?: Array<{ option: number; value: number; rival: number; turn: number; weight?: number; start?: true }>): GameOpportunities | null {
  const started = GameState.start(walker, record.startFen);
  if (!started.ok) return null;
  const game = started.value;
  const turns = options.map((o) => o.values.map(() => new Array<number>(o.values.length).fill(0)));
  const chance = options.map((o) => (o.kind === 'roll' ? o.values.map(() => new Array<number>(o.values.length).fill(0)) : []));
  const chanceMax = options.map((o) => (o.kind === 'roll' ? o.values.map(() => new Array<number>(o.values.length).fill(0)) : []));
  const examples = options.map((o) => o.values.map(() => new Array<OpportunityExample | null>(o.values.length).fill(null)));
  const stats: TurnTestStats = { cheap: 0, exact: 0 };
  // Outcome options: one game state per value, playing the same moves, to see how each would let the game end.
  const states = options.map((o) => (countsOutcomes(o.kind) ? o.engines.map((e) => GameState.start(e, record.startFen)) : null));
  const ended = states.map((s) => (s ? s.map(() => false) : null));
  // Options whose values leave different positions: one game per value, playing the recorded turns (null once it refuses one).
  const own = options.map((o) => (countsTurns(o.kind) && divergesPositions(o.path) ? o.engines.map((e): GameState | null => { const g = GameState.start(e, record.startFen); return g.ok ? g.value : null; }) : null));
  const tc = record.timeControl;
  const clockUsable = tc !== null && (tc.kind === 'fischer' || tc.kind === 'sudden-death') && tc.initialMs !== null;
  const increment = tc?.incrementMs ?? 0;
  const hasClock = options.some((o) => o.kind === 'clock');
  const side = (t: number): 0 | 1 => (record.turns[t].side === 'w' ? 0 : 1);
  // The cube as the events leave it before each roll (read only when a cube option is counted).
  const cube = options.some((o) => o.kind === 'cube') ? new CubeTrack(record.events) : null;
  const rulesOf = options.map((o) => (o.kind === 'cube' || o.kind === 'roll' || o.kind === 'decline' ? o.engines.map((e) => e.rules) : []));
  // The rolls: held to the seeds where a reveal verifies them all; BrainKing's die to the types that can move.
  const rolls = options.some((o) => o.kind === 'roll');
  const revealed = rolls && record.fairness !== null && judgeFairness(record) === null;
  const movableWanted = rolls && options.some((o, i) => o.kind === 'roll' && rulesOf[i].some((r) => r.dice.draw === 'movable-types'));
  // Each value's dice, for the chance a roll falls among those another value allows; rolls compared in order where the record keeps it.
  const odds = options.map((o, i) => (o.kind === 'roll' ? rulesOf[i].map(faceOdds) : []));
  const ordered = rolls && record.turns.every((t) => t.diceOrder === 'roll');
  const example = (i: number, j: number, k: number, t: number, kind: OpportunityExample['kind'], allowed: string, witness: string[] | null, dfen: string): void => {
    if (!options[i].wantExample[j][k] || examples[i][j][k]) return;
    const turn = record.turns[t];
    examples[i][j][k] = { id: record.id, index, location: record.location, turn: t + 1, dfen, dice: makeDiceLetters(turn.dice as Role[], side(t)), recorded: turn.moves.slice(), kind, allowed, witness };
  };

  // Options still wanting an example of some pair (the witness search runs only for those).
  const wanting = options.map((o) => o.wantExample.some((row) => row.some(Boolean)));
  for (let t = 0; t < record.turns.length; t++) {
    if (game.outcome) break;
    const turn = record.turns[t];
    // What the roll gives the turn, where the base dialect reads rolls itself (count dice, faces per die, free turns).
    const rolled = game.plainRolls ? null : game.turnDice(turn.dice);
    const dice = rolled === null ? (turn.dice as Role[]) : rolled.dice;
    const partial = mayEndPartway(record, t);
    const cubeNow = cube?.before(t + 1) ?? null;
    // A last turn that may stop part-way earns no increment only when it did stop part-way (as the replayer's clock check reads it).
    const clockPartial = partial && hasClock && clockUsable && !isComplete(game, dice, turn.moves);
    // A turn that rolls (not a free one): the types that can move by each test a value draws by, found once per test.
    const rolledNow = rolls && turn.dice.length > 0 && game.freeTurn() === null;
    const movable = { 'allowed-move': null as Role[] | null, step: null as Role[] | null };
    const movableFor = (i: number, k: number): Role[] | null => {
      if (!movableWanted || turn.dice.length !== 1) return null;
      const test = rulesOf[i][k].dice.movableTest;
      return (movable[test] ??= test === 'step' ? stepMovableRoles(game.pos) : allowedMovable(options[i].engines[k], game.pos));
    };
    options.forEach((o, i) => {
      const conf = o.conforming;
      if (o.kind === 'roll' && rolledNow) {
        const sets = rulesOf[i].map((r, k) => allowedRolls(r, movableFor(i, k), revealed, dice));
        rollOpportunities(
          sets,
          conf,
          turns[i],
          (j, k, weight) => {
            chance[i][j][k] += weight;
            if (weight > chanceMax[i][j][k]) chanceMax[i][j][k] = weight;
            trace?.push({ option: i, value: j, rival: k, turn: t + 1, weight });
            example(i, j, k, t, 'roll', rollAllowed(sets[k], sets[j]), null, game.dfen(dice));
          },
          odds[i],
          ordered,
        );
      }
      if (o.kind === 'cube' && cubeNow) {
        const rules = rulesOf[i];
        cubeOpportunities(rules, cubeNow, turn.side, conf, turns[i], (j, k) => {
          trace?.push({ option: i, value: j, rival: k, turn: t + 1 });
          example(i, j, k, t, 'cube', cubeAllowed(rules[j], cubeNow, turn.side), null, game.dfen());
        });
      }
      if (countsTurns(o.kind) && !partial) {
        const before = wanting[i] || trace ? turns[i].map((row) => row.slice()) : null;
        const positions = own[i]?.map((g) => g?.pos ?? null);
        turnOpportunities(o.path, o.values, o.engines, game.pos, dice, turn.moves, conf, turns[i], stats, positions);
        if (before) turns[i].forEach((row, j) =>
          row.forEach((n, k) => {
            if (n !== before[j][k]) trace?.push({ option: i, value: j, rival: k, turn: t + 1, start: true });
            if (n === before[j][k] || !o.wantExample[j][k] || examples[i][j][k]) return;
            const witness = witnessTurn(o.engines[j], o.engines[k], positions?.[k] ?? game.pos, dice, undefined, positions?.[j] ?? undefined);
            example(i, j, k, t, 'turn', witness ? `the turn ${witness.join(' ') || '(pass)'}` : 'a turn the value forbids', witness, own[i]?.[j]?.dfen(dice) ?? game.dfen(dice));
          }),
        );
      }
      if (o.kind === 'clock' && clockUsable && turn.thinkingMs !== null && turn.clockMs?.[turn.side] != null) {
        const rules = o.engines.map((e) => e.rules);
        const earned = rules.map((r) => earnedIncrementMs(r, turn, clockPartial, increment));
        const pass = turn.moves.length === 0 && !clockPartial;
        conf.forEach((c, j) => {
          if (!c) return;
          rules.forEach((r, k) => {
            if (k === j || !(earned[j] !== earned[k] || (pass && rules[j].clock.passesFree && !r.clock.passesFree))) return;
            turns[i][j][k]++;
            trace?.push({ option: i, value: j, rival: k, turn: t + 1 });
            example(i, j, k, t, 'clock', `${earned[k]} ms earned for this turn (the value: ${earned[j]} ms)`, null, game.dfen(dice));
          });
        });
      }
    });
    const verdict = game.playRecorded(dice, turn.moves, { partial, mayPass: rolled !== null && rolled.mayPass });
    if (!verdict.ok || !verdict.complete) break;
    for (const games of own) {
      games?.forEach((g, k) => {
        if (!g) return;
        const v = g.outcome ? null : g.playRecorded(dice, turn.moves, { partial, mayPass: rolled !== null && rolled.mayPass });
        if (!v || !v.ok || !v.complete) games[k] = null;
      });
    }
    states.forEach((s, i) => {
      if (!s) return;
      const done = ended[i]!;
      s.forEach((r) => r.ok && r.value.play(verdict.moves));
      const endings = s.map((r) => (r.ok ? endingsOf(r.value) : []));
      options[i].conforming.forEach((c, j) => {
        if (!c || done[j]) return;
        endings.forEach((e, k) => {
          if (k === j || done[k]) return;
          const extra = e.filter((x) => !endings[j].includes(x));
          if (extra.length === 0) return;
          turns[i][j][k]++;
          trace?.push({ option: i, value: j, rival: k, turn: t + 1 });
          example(i, j, k, t, 'outcome', `after this turn: ${extra.join(' or ')} (the value: ${endings[j].join(' or ')})`, null, game.dfen());
        });
      });
      s.forEach((r, k) => r.ok && r.value.outcome !== null && (done[k] = true));
    });
  }
  // The declined double that ended the game, after its last turn: once per game.
  options.forEach((o, i) => {
    if (o.kind !== 'decline') return;
    declineOpportunities(record, rulesOf[i], o.conforming, turns[i], (j, k) => {
      trace?.push({ option: i, value: j, rival: k, turn: record.turns.length + 1 });
      if (!o.wantExample[j][k] || examples[i][j][k]) return;
      examples[i][j][k] = { id: record.id, index, location: record.location, turn: record.turns.length + 1, dfen: game.dfen(), dice: '', recorded: [], kind: 'decline', allowed: declineAllowed(record, rulesOf[i][k]), witness: null };
    });
  });
  return { turns, chance, chanceMax, examples, stats };
}

const MOVABLE_BUF: Move[] = [];

/** The types with an allowed micro-move under `engine` now (`dice.movableTest: "allowed-move"`), as GameState.movableFaces finds them. */
function allowedMovable(engine: TurnEngine, pos: Position): Role[] {
  const out: Role[] = [];
  for (let r = 1; r <= 6; r++) if (engine.micro.generate(pos, DicePool.of([r as Role]), 0, MOVABLE_BUF) > 0) out.push(r as Role);
  return out;
}
