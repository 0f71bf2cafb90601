import { KNIGHT, makeBoard, makeDiceLetters, type Move, moveTo, PAWN, QUEEN, type Role, uciToMove } from '../core/index.js';
import { verifyRolls } from '../dice/index.js';
import { type FenBoards, fenBoardsOf } from '../records/model/fen-boards.js';
import type { GameRecord, Turn } from '../records/model/game-record.js';
import { reportedFaults } from '../records/model/recording-faults.js';
import { GameState, isRecordingFault, type RuleId, type Rules, TurnEngine, type TurnFinding, type TurnVerdict } from '../rules/index.js';
import { earnedIncrementMs } from './clock-rule.js';
import { judgeEnd } from './judge-end.js';
import { judgeEvents } from './judge-events.js';
import { MAX_FINDINGS } from './findings-cap.js';
import type { Finding, GameResultLine } from './result.js';

/** A dialect ready to judge games: its rules and one turn engine reused for every game. */
export interface PreparedDialect {
  name: string;
  rules: Rules;
  engine: TurnEngine;
}

export const prepareDialect = (name: string, rules: Rules): PreparedDialect => ({ name, rules, engine: new TurnEngine(rules) });

export interface ReplayOptions {
  /** Record every divergence of a game, not only the first. */
  continueAfterDivergence?: boolean;
  /** The record's fairness verdict when already known: it does not depend on the dialect (used only under `dice.draw: provably-fair`). */
  fairness?: FairnessFinding | null;
}

export type FairnessFinding = { rule: RuleId; turn: number | null; message: string };

const PARTIAL_ENDS = new Set(['timeout', 'resign', 'draw_agreement', 'unknown']);

/**
 * The partial-turn rule, for replay and infer alike: the last recorded turn of a game that
 * ended by the clock, a resignation, an agreed draw or an unknown end (or an empty last turn
 * the reader noted as a no-op) may stop part-way; an opening book's lines are cut where the
 * book stops, not partial turns.
 */
export const mayEndPartway = (record: GameRecord, turn: number): boolean =>
  turn === record.turns.length - 1 &&
  (PARTIAL_ENDS.has(record.termination) || noOpLast(record, record.turns[turn])) &&
  record.format !== 'opening-book';

const sideName = (s: 0 | 1): string => (s === 0 ? 'white' : 'black');

/**
 * Judges one game under one dialect: the start, the fairness reveal (provably-fair dice), every turn (dice,
 * flags, micro-moves, positions, clocks), negotiations and the recorded end. Stops at
 * the first divergence unless asked to go on.
 */
export function replayGame(record: GameRecord, dialect: PreparedDialect, index: number, opts: ReplayOptions = {}): GameResultLine {
  const findings: Finding[] = [];
  let more = 0;
  const rules = dialect.rules;
  const goOn = opts.continueAfterDivergence === true;
  const line = (): GameResultLine => ({
    id: record.id,
    dialect: dialect.name,
    status: findings.length === 0 ? 'conforming' : isRecordingFault(findings[0].rule) ? 'faulty' : 'diverging',
    findings,
    index,
    source: record.location,
    turns: record.turns.length,
    ...(more > 0 ? { moreFindings: more } : {}),
  });
  const add = (rule: RuleId, turn: number | null, microMove: number | null, message: string, extra: Partial<Finding> = {}): void => {
    if (findings.length >= MAX_FINDINGS) {
      more++;
      return;
    }
    findings.push({ rule, turn, microMove, dfen: null, dice: null, recorded: [], allowed: [], message, location: record.location, ...extra });
  };

  const started = GameState.start(dialect.engine, record.startFen);
  if (!started.ok) {
    add('start.position', null, null, `the start position cannot be played: ${started.error.message}`);
    return line();
  }
  const game = started.value;
  const startProblem = judgeStart(record, rules);
  if (startProblem) {
    add('start.position', null, null, startProblem, { dfen: record.startFen });
    if (!goOn) return line();
  }

  if (record.mode === 'x2' && !rules.stakes.modes.includes('x2')) {
    add('cube.not-allowed', null, null, 'the game was played in x2 mode (doubling cube), which this dialect does not have');
    if (!goOn) return line();
  }

  // A reveal is judged only where the dialect draws its dice from seeds: fair dice promise none (docs/rules.md §2.10).
  const fairness = rules.dice.draw !== 'provably-fair' ? null : opts.fairness !== undefined ? opts.fairness : judgeFairness(record);
  if (fairness && fairness.turn === null) {
    add(fairness.rule, null, null, fairness.message);
    if (!goOn) return line();
  }

  const clocks = new ClockJudge(record, rules);
  const readBoards = fenBoardsOf(record);
  // Negotiation findings in time order with the turns: those before a turn's roll (or its
  // first micro-move) come before the turn, mid-turn ones after it.
  const events = judgeEvents(record, rules);
  let nextEvent = 0;
  const eventsUpTo = (turn: number, midTurn: boolean): boolean => {
    while (nextEvent < events.length) {
      const e = events[nextEvent];
      const before = e.turn < turn || (e.turn === turn && (midTurn || (e.microMove ?? 0) === 0));
      if (!before) return true;
      nextEvent++;
      add(e.rule, e.turn, e.microMove, e.message, { recorded: [e.event] });
      if (!goOn) return false;
    }
    return true;
  };
  // Faults the reader found that hide the record's play: judging stops where each one sits.
  const hidden = record.notes.length === 0 ? [] : reportedFaults(record.notes);
  let hiddenAt = hidden.length > 0 ? hidden[0].turn : Infinity;
  const reportHidden = (n: number): void => {
    while (hidden.length > 0 && hidden[0].turn <= n) {
      const f = hidden.shift()!;
      add(f.code, f.turn <= record.turns.length ? f.turn : null, null, hiddenText(f.code, f.turn, record.turns.length));
    }
    hiddenAt = hidden.length > 0 ? hidden[0].turn : Infinity;
  };
  let stopped = false;
  for (let t = 0; t < record.turns.length; t++) {
    const turn = record.turns[t];
    const n = t + 1;
    if (n >= hiddenAt) {
      reportHidden(n);
      stopped = true;
      if (!goOn) break;
    }
    // The last turn's checkmate and stalemate test, needless when this turn's first move is legal.
    game.settle(turn.moves);
    if (!eventsUpTo(n, false)) break;
    // What the roll gives the turn, where the dialect reads rolls itself (count dice, faces per die, free turns).
    const rolled = game.plainRolls ? null : game.turnDice(turn.dice);
    const dice = rolled === null ? (turn.dice as Role[]) : rolled.dice;

    if (game.outcome) {
      const rule: RuleId = game.outcome.reason === 'king_captured' ? 'end.move-after-king-capture' : 'end.move-after-game-end';
      add(rule, n, null, `turn ${n} was played after the game ended (${game.outcome.reason.replace(/[-_]/g, ' ')} at turn ${game.turnNumber})`, {
        dfen: game.dfen(dice),
        dice: makeDiceLetters(dice, game.pos.turn),
        recorded: turn.moves,
        location: turn.location ?? record.location,
      });
      break;
    }
    const side = turn.side === 'w' ? 0 : 1;
    if (side !== game.pos.turn) {
      add('turn.side', n, null, `turn ${n} is recorded for ${sideName(side)}, but it is ${sideName(game.pos.turn)}'s turn`, { dfen: game.dfen(), recorded: turn.moves });
      if (!goOn) break;
      game.pos.turn = side;
    }
    if (fairness && fairness.turn === n) {
      add(fairness.rule, n, null, fairness.message, { dfen: game.dfen(dice), dice: makeDiceLetters(dice, game.pos.turn), recorded: turn.moves.slice() });
      if (!goOn) break;
    }
    const diceProblem = game.checkDice(turn.dice);
    if (diceProblem) {
      add(diceProblem.rule, n, null, diceProblem.message, findingAt(game, turn, diceProblem, record));
      if (!goOn) break;
    }
    // Only the last turn may be cut short, and only by a timeout, a resignation or an agreed draw
    // (or an ending the record does not name: dicechess.com state maps leave resignations unmarked).
    // An opening-book line is a whole turn, never the end of a game.
    const partial = mayEndPartway(record, t);
    const flags = turn.diceFlags;
    let flagProblem: string | null = null;
    // The flags describe the roll: judge them on the position before the turn, with the turn
    // still open. They come first. The turn is taken back for them only when the engine has
    // to look at its start. A flag says whether its die's piece can be spent, so they are
    // judged only where each recorded die is one die of the turn's pool naming a piece (its
    // face, or its die's own face): not for a count die (its face is a number of moves, paid by
    // dice of any piece), a piece and a count die (the second is no piece), an "any" face (it
    // is every piece at once) or a turn not rolled. No site records flags for those (the
    // generator writes none there); a record that has them is read, not judged on them.
    const checkFlags =
      flags && flags.length === dice.length && turn.dice.length === dice.length && rules.dice.reads === 'pieces'
        ? (verdict: TurnVerdict): void => {
            const known = verdict.ok && verdict.complete && !verdict.kingCaptured ? verdict.diceSpent : undefined;
            const fromTarget = dialect.engine.spendableFromTarget(dice, known, SPENDABLE);
            let back = fromTarget === null;
            if (back) takeBack(game, verdict.moves);
            const spendable = fromTarget ?? dialect.engine.spendableDice(game.pos, dice, known, SPENDABLE);
            flagProblem = judgeFlags(flags, dice, spendable);
            if (flagProblem) {
              if (!back) takeBack(game, verdict.moves);
              back = true;
              add('dice.allowed-flag', n, null, flagProblem, { dfen: game.dfen(dice), dice: makeDiceLetters(dice, game.pos.turn), recorded: turn.moves });
            }
            if (back) for (const m of verdict.moves) game.pos.make(m);
          }
        : undefined;
    // A legal turn ends here; the checkmate and stalemate test waits for the next turn's first move (settle).
    const verdict = game.playRecorded(dice, turn.moves, { partial, deferNoMoveTest: true, beforeEnd: checkFlags, mayPass: rolled !== null && rolled.mayPass });
    if (flagProblem && !goOn) break;
    if (partial && verdict.ok && !verdict.complete && turn.fenAfter && sideOfFen(turn.fenAfter) !== turn.side) {
      add('record.partial-turn-side-flipped', n, null, `the last turn stops after ${turn.moves.length} micro-move(s) with dice left to play, but its position names ${turn.side === 'w' ? 'black' : 'white'} to move: the record does not say whether the turn was cut short or ended`, { dfen: game.dfen(), recorded: turn.moves });
      if (!goOn) break;
    }
    if (!verdict.ok) {
      const f = verdict.finding;
      const at = findingAt(game, turn, f, record);
      if (f.microMove !== null && f.microMove > 0) {
        // The turn's start, for a check of the whole turn: the micro-moves played are taken back and played again.
        takeBack(game, verdict.moves);
        at.turnDfen = game.dfen(dice);
        for (const m of verdict.moves) game.pos.make(m);
      }
      add(f.rule, n, f.microMove, f.message, at);
      if (!goOn || !forcePlay(game, turn, verdict.moves.length)) break;
    }
    const fenProblem = judgeFenAfter(game, turn, verdict.moves, readBoards, t);
    if (fenProblem) {
      const rotated = turn.fenAfter !== null && boardMatches(rotate180(game.pos.board), turn.fenAfter);
      if (rotated) add('record.rotated-board', n, null, `the record's board after the turn is the 180° image of the one the moves give ("${makeBoard(game.pos.board)}"): the record is stored rotated`, { dfen: game.dfen(), recorded: turn.moves });
      else add('record.fen-after-mismatch', n, null, fenProblem, { dfen: game.dfen(), recorded: turn.moves });
      if (!goOn) break;
    }
    const clockProblem = clocks.judge(turn, t, record.turns.length, partial && verdict.ok && !verdict.complete);
    if (clockProblem) {
      add('clock.mismatch', n, null, clockProblem, { recorded: turn.moves });
      if (!goOn) break;
    }
    if (!eventsUpTo(n, true)) break;
  }

  if (!stopped && (findings.length === 0 || goOn) && hidden.length > 0) {
    reportHidden(Infinity);
    stopped = true;
  }
  if (findings.length === 0 || goOn) eventsUpTo(Infinity, true);
  if (!stopped && (findings.length === 0 || goOn)) {
    const end = judgeEnd(record, rules, game.outcome, game.pos, game.drawClaim);
    if (end) add(end.rule, record.turns.length || null, null, end.message, { dfen: game.dfen(), recorded: [record.termination, record.result ?? 'none'] });
  }
  return line();
}

/** A reported fault's sentence. */
function hiddenText(code: RuleId, turn: number, turns: number): string {
  const at = turn <= turns ? `at turn ${turn}` : 'after the last turn';
  switch (code) {
    case 'record.collapsed-states':
      return `consecutive states were collapsed into one ${at}: the micro-moves between them are lost, so the game cannot be judged from there`;
    default:
      return `${code} ${at}: the record hides what the rules would need from there`;
  }
}

/** The side a FEN names to move (its second field). */
const sideOfFen = (fen: string): string => fen.trim().split(/\s+/)[1] ?? '';

/** The board turned 180° (a1 ↔ h8), each piece keeping its colour. */
function rotate180(board: Int8Array): Int8Array {
  const out = new Int8Array(64);
  for (let sq = 0; sq < 64; sq++) out[63 - sq] = board[sq];
  return out;
}

/**
 * A last turn that rolled and played nothing because the game ended there (a draw agreed, a
 * game abandoned: the reader noted it), not a pass: it is judged as a turn cut short.
 */
const noOpLast = (record: GameRecord, turn: Turn): boolean => turn.moves.length === 0 && record.notes.includes('record.no-op-last-turn');

/** Where a turn finding points: its DFEN, the turn's dice and moves, the dialect's alternatives. */
function findingAt(game: GameState, turn: Turn, f: TurnFinding, record: GameRecord): Partial<Finding> {
  return {
    dfen: f.dfen,
    dice: makeDiceLetters(turn.dice as Role[], game.pos.turn),
    recorded: turn.moves,
    allowed: f.allowed,
    location: turn.location ?? record.location,
  };
}

/**
 * After a divergence, with --continue-after-divergence: play the rest of the recorded
 * turn as written (no rules, geometry only) so later turns can still be judged.
 * Returns false when the record cannot be followed any further.
 */
function forcePlay(game: GameState, turn: Turn, legalPrefix: number): boolean {
  let captured = false;
  for (let i = legalPrefix; i < turn.moves.length; i++) {
    const m = uciToMove(game.pos, turn.moves[i]);
    if (!m.ok) return false;
    if (game.engine.micro.capturesKing(game.pos, m.value)) captured = true;
    game.pos.make(m.value);
  }
  game.finishTurn(captured);
  return true;
}

function judgeStart(record: GameRecord, rules: Rules): string | null {
  if (rules.start.position !== 'standard') return null;
  const n = record.chess960;
  if (n !== null && n !== 518) return `the game starts from Chess960 position ${n}; this dialect plays only the classic start`;
  return null;
}

/** The commitment and every roll against a fairness reveal (null: none recorded, or all good). */
export function judgeFairness(record: GameRecord): FairnessFinding | null {
  if (!record.fairness) return null;
  const rolls = record.turns.map((t) => t.dice);
  const order = record.turns.every((t) => t.diceOrder === 'roll') ? 'roll' : 'sorted';
  const v = verifyRolls(record.fairness, rolls, { order });
  if (v.ok) return null;
  return { rule: v.code, turn: v.index === null ? null : v.index + 1, message: v.message };
}

/** Takes the played micro-moves of a turn back (the turn is not ended yet). */
function takeBack(game: GameState, moves: readonly Move[]): void {
  for (let i = moves.length - 1; i >= 0; i--) game.pos.unmake(moves[i]);
}

// The flags check's arrays, reused turn after turn (a replay runs on one thread).
const SPENDABLE = new Int8Array(7);
const SEEN = new Int8Array(7);

/** The site's per-die `allowed` flags (one per die) against the dice the dialect can spend per role. */
function judgeFlags(flags: NonNullable<Turn['diceFlags']>, dice: readonly number[], spendable: Int8Array): string | null {
  const seen = SEEN.fill(0);
  for (let i = 0; i < flags.length; i++) {
    const face = dice[i];
    const expected = seen[face] < spendable[face];
    seen[face]++;
    if (flags[i].allowed !== expected) {
      return `die ${i + 1} (${'PNBRQK'[face - 1]}) is flagged allowed:${flags[i].allowed}, but under this dialect it ${expected ? 'can' : 'cannot'} be spent`;
    }
  }
  return null;
}

function judgeFenAfter(game: GameState, turn: Turn, moves: readonly Move[], read: FenBoards | undefined, t: number): string | null {
  if (!turn.fenAfter) return null;
  // Board only: sites differ on when the side-to-move field flips (after the last micro-move or at the next roll).
  // The board the reader wrote down is the text's own (FenBoards); the text is read only where it has none.
  if (read?.matches(t, turn.fenAfter, game.pos.boardWords) ?? boardMatches(game.pos.board, turn.fenAfter)) return null;
  if (game.outcome?.reason === 'king_captured' && promotedKingTakerMatches(game.pos.board, moves[moves.length - 1], turn.fenAfter)) return null;
  const want = turn.fenAfter.trim().split(/\s+/)[0];
  return `the record's board after the turn is "${want}", but the moves give "${makeBoard(game.pos.board)}"`;
}

/**
 * A pawn that took the king on its last rank stays a pawn, but a record that wrote the
 * capture with a promotion letter (`f7e8q`) may show the promoted piece there: the game is
 * over, so either board is this move's.
 */
function promotedKingTakerMatches(board: Int8Array, last: Move | undefined, fen: string): boolean {
  if (last === undefined) return false;
  const to = moveTo(last);
  const pawn = board[to];
  if ((pawn !== PAWN && pawn !== -PAWN) || (to >> 3 !== 7 && to >> 3 !== 0)) return false;
  let matches = false;
  for (let role = KNIGHT; role <= QUEEN && !matches; role++) {
    board[to] = pawn > 0 ? role : -role;
    matches = boardMatches(board, fen);
  }
  board[to] = pawn;
  return matches;
}

/** FEN piece letter (char code) → board value; 0 = not a piece letter. */
const PIECE_BY_CHAR = new Int8Array(128);
[...'pnbrqk'].forEach((ch, i) => {
  PIECE_BY_CHAR[ch.charCodeAt(0)] = -(i + 1);
  PIECE_BY_CHAR[ch.toUpperCase().charCodeAt(0)] = i + 1;
});

/** Does the FEN's board field describe exactly this board? (No string built: this runs once per turn.) */
function boardMatches(board: Int8Array, fen: string): boolean {
  let i = 0;
  while (fen.charCodeAt(i) === 32) i++;
  let rank = 7;
  let file = 0;
  for (; i < fen.length; i++) {
    const c = fen.charCodeAt(i);
    if (c === 32) break;
    if (c === 47) {
      if (file !== 8) return false;
      rank--;
      file = 0;
    } else if (c >= 49 && c <= 56) {
      for (let k = c - 48; k > 0; k--, file++) if (file > 7 || board[rank * 8 + file] !== 0) return false;
    } else {
      const piece = c < 128 ? PIECE_BY_CHAR[c] : 0;
      if (piece === 0 || file > 7 || rank < 0 || board[rank * 8 + file] !== piece) return false;
      file++;
    }
  }
  return rank === 0 && file === 8;
}

/** Recorded clocks against the time control: increment per turn or per micro-move, free passes, flag falls. */
class ClockJudge {
  private readonly clock: { w: number; b: number } | null;
  private readonly increment: number;

  constructor(
    record: GameRecord,
    private readonly rules: Rules,
  ) {
    const tc = record.timeControl;
    const usable = tc && (tc.kind === 'fischer' || tc.kind === 'sudden-death') && tc.initialMs !== null;
    this.clock = usable ? { w: tc.initialMs ?? 0, b: tc.initialMs ?? 0 } : null;
    this.increment = tc?.incrementMs ?? 0;
  }

  judge(turn: Turn, t: number, total: number, partial: boolean): string | null {
    const clock = this.clock;
    const recorded = turn.clockMs?.[turn.side];
    if (!clock || recorded === null || recorded === undefined) return null;
    const passed = turn.moves.length === 0;
    const rules = this.rules;
    if (turn.thinkingMs !== null) {
      if (passed && !partial && rules.clock.passesFree && turn.thinkingMs > 0) return `a forced pass took ${turn.thinkingMs} ms; passes are free in this dialect`;
      const inc = earnedIncrementMs(rules, turn, partial, this.increment);
      const expected = clock[turn.side] - turn.thinkingMs + inc;
      if (Math.abs(expected - recorded) > 1) {
        return `${turn.side === 'w' ? 'white' : 'black'}'s clock reads ${recorded} ms after the turn, but ${clock[turn.side]} − ${turn.thinkingMs} + ${inc} (increment ${rules.clock.increment}) = ${expected} ms`;
      }
    }
    clock[turn.side] = recorded;
    if (recorded <= 0 && t < total - 1) return `${turn.side === 'w' ? 'white' : 'black'}'s flag fell at turn ${t + 1}, but the game went on`;
    return null;
  }
}
