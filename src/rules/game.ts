import {
  BISHOP,
  type CoreError,
  type Die,
  err,
  hasLegalMove,
  inCheck,
  isAttacked,
  isOrthodoxPieceMove,
  KNIGHT,
  type Move,
  makeDfen,
  ok,
  ORTHODOX,
  PAWN,
  type Position,
  positionKey,
  QUEEN,
  type Result,
  type Role,
  ROLE_LETTERS,
  ROOK,
  uciMove,
} from '../core/index.js';
import { DicePool } from './dice-pool.js';
import { KeyCounts } from './key-counts.js';
import { parseDialectDfen } from './dialect-position.js';
import { diceOfRoll, FREE_MOVE, readsRollsItself, rollsFreeChoice, stepMovableRoles } from './roll.js';
import type { Rules } from './rules.js';
import { type TurnFinding, TurnEngine, type TurnVerdict } from './turn-engine.js';

/** Why a side does not roll this turn: White's free first move, in check, or after giving check (Vegas Fun Chess). */
export type FreeTurn = 'first-move' | 'in-check' | 'after-check';

const FREE_TURN_TEXT: Record<FreeTurn, string> = {
  'first-move': "White's first move is free",
  'in-check': 'a player in check does not roll',
  'after-check': 'a player whose last turn gave check does not roll',
};

export type OutcomeReason = 'king_captured' | 'checkmate' | 'stalemate' | 'move-counter' | 'turn-limit' | 'repetition' | 'insufficient-material' | 'nothing-moves';

/** The record termination each of the dialect's own endings is written as. */
export const TERMINATION_OF: Record<OutcomeReason, 'king_captured' | 'checkmate' | 'stalemate' | 'draw_rule'> = {
  king_captured: 'king_captured',
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'move-counter': 'draw_rule',
  'turn-limit': 'draw_rule',
  repetition: 'draw_rule',
  'insufficient-material': 'draw_rule',
  'nothing-moves': 'draw_rule',
};

/** FIDE 9.6: under `draws.ruleDraws: "claim"` the game still ends by itself at fivefold repetition and at 75 moves by each side. */
const AUTOMATIC_REPETITION = 5;
const AUTOMATIC_HALFMOVES = 150;

/** How `GameState.playRecorded` reads and ends a recorded turn. */
export interface PlayRecordedOptions {
  /** The game ended during this turn, so it only has to be the start of a legal turn. */
  partial?: boolean;
  /** Leave the checkmate and stalemate test to `settle` (see `finishTurn`). */
  deferNoMoveTest?: boolean;
  /**
   * Called with the turn's micro-moves played (a divergence's legal prefix), before the turn
   * ends: for checks against the turn's start, which may take the moves back and play them
   * again (the replayer's allowed-flags check).
   */
  beforeEnd?: (verdict: TurnVerdict) => void;
  /** The turn may pass by choice (see `GameState.turnDice`). */
  mayPass?: boolean;
}

const NO_PLAY_OPTIONS: PlayRecordedOptions = {};

export interface Outcome {
  result: 'white' | 'black' | 'draw';
  reason: OutcomeReason;
}

/**
 * A game under one dialect: the position, the turn count (passes included), draw
 * counters, and the outcome once the dialect ends the game. Turns are judged and
 * played through the dialect's TurnEngine; nothing here knows about files.
 */
export class GameState {
  turnNumber = 0;
  private ending: Outcome | null = null;
  private claim: Outcome | null = null;
  /**
   * The test for checkmate and stalemate is still to run on this position (`finishTurn` was
   * asked to leave it): `settle` runs it, or finds it needless when the next turn's first
   * move is legal here.
   */
  private noMoveTestPending = false;
  /** A move `settle` found legal in orthodox chess here (so leaving the king safe), for the next `playRecorded`; -1: none. */
  private safeFirst: Move | -1 = -1;
  /** The recorded text `safeFirst` was read from. */
  private safeText = '';
  /** The turn (turnNumber × 2 + side to move) `safeFirst` was found for. */
  private safeAt = -1;
  /** Position key → times seen in this game (made on the first count: most dialects never count). */
  private repetitions: KeyCounts | null = null;
  /** Per side: did its last turn give check (for `dice.whoRolls: "not-in-or-after-check"`)? */
  private readonly gaveCheck = [false, false];
  /**
   * Every turn rolls and each die names the piece of its face, as in most dialects: a
   * recorded roll is the turn's dice as they stand (`turnDice` is needless).
   */
  readonly plainRolls: boolean;
  /** Who rolls depends on check (`dice.whoRolls: "not-in-or-after-check"`): each turn's end notes whether it gave check. */
  private readonly checkDecidesRoll: boolean;
  /** The check rule's end of a game (checkmate or stalemate) is tested after each turn. */
  private readonly noMoveTest: boolean;

  private constructor(
    readonly engine: TurnEngine,
    readonly pos: Position,
  ) {
    const r = engine.rules;
    this.plainRolls = !readsRollsItself(r) && !r.turn.firstMoveFree && r.dice.whoRolls === 'every-turn';
    this.checkDecidesRoll = r.dice.whoRolls === 'not-in-or-after-check';
    this.noMoveTest = r.check === 'orthodox' && (r.end.checkmate || r.draws.stalemate);
    this.countRepetition();
  }

  static start(rules: Rules | TurnEngine, fen: string): Result<GameState, CoreError> {
    const engine = rules instanceof TurnEngine ? rules : new TurnEngine(rules);
    const parsed = startPosition(engine, fen);
    if (!parsed.ok) return parsed;
    const pos = parsed.value;
    if (pos.kingSquare[0] < 0 || pos.kingSquare[1] < 0) return err('fen.kings', 'the start position lacks a king');
    const game = new GameState(engine, pos);
    // Turns already played, passes included, follow from the move number (one turn per side per move).
    game.turnNumber = 2 * (pos.fullmove - 1) + pos.turn;
    return ok(game);
  }

  get rules(): Rules {
    return this.engine.rules;
  }

  /** How the dialect ended the game by itself (null: still going). */
  get outcome(): Outcome | null {
    if (this.noMoveTestPending) this.settle();
    return this.ending;
  }

  /**
   * A draw the player to move may claim now (`draws.ruleDraws: "claim"`: the repetition or
   * move-counter limit is reached); null when none, and always null when the dialect draws
   * automatically (then `outcome` says so). The game goes on unless a player claims.
   */
  get drawClaim(): Outcome | null {
    if (this.noMoveTestPending) this.settle();
    return this.claim;
  }

  /**
   * Runs the checkmate and stalemate test `finishTurn` left for later, unless `next` (the
   * next turn's recorded moves) starts with a move legal in orthodox chess here: then the
   * side to move has one, which is all the test asks (the usual case, at a fraction of it).
   */
  settle(next: readonly string[] = []): void {
    if (!this.noMoveTestPending) return;
    this.noMoveTestPending = false;
    const first = next.length > 0 ? uciMove(this.pos, next[0]) : -1;
    if (isOrthodoxPieceMove(this.pos, first)) {
      this.safeFirst = first;
      this.safeText = next[0];
      this.safeAt = this.turnNumber * 2 + this.pos.turn;
      return;
    }
    const end = this.noMoveEnd();
    if (end) {
      this.ending = end;
      this.claim = null;
    }
  }

  uci(m: Move): string {
    return this.engine.uci(m);
  }

  dfen(dice?: readonly Die[] | null): string {
    return makeDfen(this.pos, dice, { castling: this.rules.castling.chess960 ? 'shredder' : 'xfen' });
  }

  legalTurns(dice: readonly Die[], limit?: number): Move[][] {
    return this.engine.legalTurns(this.pos, dice, limit);
  }

  legalFirstMicroMoves(dice: readonly Die[]): Move[] {
    return this.engine.legalFirstMicroMoves(this.pos, dice);
  }

  /** Why the side to move does not roll this turn (it may make any legal move), or null: it rolls. */
  freeTurn(): FreeTurn | null {
    if (this.plainRolls) return null;
    const r = this.rules;
    if (r.turn.firstMoveFree && this.turnNumber === 0 && this.pos.turn === 0) return 'first-move';
    if (this.checkDecidesRoll) {
      if (inCheck(this.pos, this.pos.turn)) return 'in-check';
      if (this.gaveCheck[this.pos.turn]) return 'after-check';
    }
    return null;
  }

  /**
   * The dice a recorded roll (faces, roll order) gives this turn, and whether the turn may
   * pass by choice (`pass.onFreeChoice`: an `any` face, a free turn after giving check, and
   * with `pass.whenCheckedBack` one in check after giving check).
   */
  turnDice(faces: readonly number[]): { dice: readonly Die[]; mayPass: boolean } {
    if (this.plainRolls) return { dice: faces as Role[], mayPass: false };
    const free = this.freeTurn();
    const onFree = this.rules.pass.onFreeChoice;
    // In check after giving check (the reply checked back), the pass is the dialect's choice (`pass.whenCheckedBack`).
    if (free) return { dice: FREE_MOVE, mayPass: onFree && (free === 'after-check' || (free === 'in-check' && this.rules.pass.whenCheckedBack && this.gaveCheck[this.pos.turn])) };
    return { dice: diceOfRoll(this.rules, faces), mayPass: onFree && rollsFreeChoice(this.rules, faces) };
  }

  /** Faces that have at least one allowed micro-move now (for movable-types rolls and `allowed` flags). */
  movableFaces(): Role[] {
    if (this.rules.dice.movableTest === 'step') return stepMovableRoles(this.pos);
    const out: Role[] = [];
    const buf: Move[] = [];
    for (let r = 1; r <= 6; r++) {
      const pool = DicePool.of([r as Role]);
      if (this.engine.micro.generate(this.pos, pool, 0, buf) > 0) out.push(r as Role);
    }
    return out;
  }

  /** Checks the roll itself: number of dice and faces. */
  checkDice(dice: readonly number[]): TurnFinding | null {
    const free = this.freeTurn();
    if (free) return dice.length === 0 ? null : this.turnFinding('dice.count', `${dice.length} dice recorded, but this turn rolls none: ${FREE_TURN_TEXT[free]}`);
    const want = this.rules.dice.count;
    // A loop, not `find` with a closure: this runs every turn.
    for (let i = 0; i < dice.length; i++) {
      const d = dice[i];
      if (!Number.isInteger(d) || d < 1 || d > 6) return this.turnFinding('dice.face', `die face ${d} is not 1–6`);
    }
    if (dice.length !== want) {
      return this.turnFinding('dice.count', `${dice.length} dice recorded, but this dialect rolls ${want === 0 ? 'none' : want}`);
    }
    if (this.rules.dice.draw === 'movable-types' && dice.length > 0) {
      const movable = this.movableFaces();
      const unmovable = dice.filter((d) => !movable.includes(d as Role));
      if (unmovable.length > 0 && movable.length > 0) {
        return this.turnFinding('dice.unmovable-type-rolled', `rolled ${unmovable.map((d) => ROLE_LETTERS[d].toUpperCase()).join('')}, a piece type that cannot move; this dialect rolls only movable types (${movable.map((d) => ROLE_LETTERS[d].toUpperCase()).join('')})`);
      }
    }
    return null;
  }

  private turnFinding(rule: TurnFinding['rule'], message: string, allowed: string[][] = []): TurnFinding {
    return { rule, microMove: null, dfen: this.dfen(), allowed, message };
  }

  /**
   * Judges a recorded turn and plays it: a legal turn is played and ended (a turn the game's
   * end cut short is played but never finishes: no side change, no end-of-turn rules); on a
   * divergence the legal prefix stays played and the turn is not ended (the caller decides).
   */
  playRecorded(dice: readonly Die[], moves: readonly string[], opts: PlayRecordedOptions = NO_PLAY_OPTIONS): TurnVerdict {
    this.settle();
    // The king safety `settle` saw for the first move holds while the position is the one it saw.
    const safe = this.safeAt === this.turnNumber * 2 + this.pos.turn ? this.safeFirst : -1;
    this.safeFirst = -1;
    this.safeAt = -1;
    const partial = opts.partial === true;
    const mayPass = opts.mayPass === true;
    const v = this.engine.play(this.pos, dice, moves, safe < 0 ? { partial, mayPass } : { partial, mayPass, safeFirst: safe, safeFirstText: this.safeText });
    opts.beforeEnd?.(v);
    if (v.ok && v.complete) this.finishTurn(v.kingCaptured, opts.deferNoMoveTest === true);
    else if (v.ok) this.pos.commit();
    return v;
  }

  /** Plays moves already known to be legal (generator), then ends the turn. */
  play(moves: readonly Move[]): void {
    this.settle();
    this.safeFirst = -1;
    this.safeAt = -1;
    let captured = false;
    for (const m of moves) {
      if (this.engine.micro.capturesKing(this.pos, m)) captured = true;
      this.pos.make(m);
    }
    this.finishTurn(captured);
  }

  /**
   * Ends the current turn after its moves were made, then applies the dialect's end rules.
   * `deferNoMoveTest`: leave the checkmate and stalemate test to `settle` (or to the first
   * read of `outcome` or `drawClaim`), which the caller runs before the position changes.
   */
  finishTurn(kingCaptured: boolean, deferNoMoveTest = false): void {
    this.settle();
    const mover = this.pos.turn;
    const passed = this.pos.pending === 0;
    this.pos.commit();
    this.pos.endTurn();
    this.turnNumber++;
    this.claim = null;
    if (this.checkDecidesRoll) this.gaveCheck[mover] = inCheck(this.pos, this.pos.turn);
    if (kingCaptured) {
      this.ending = { result: mover === 0 ? 'white' : 'black', reason: 'king_captured' };
      return;
    }
    const draws = this.rules.draws;
    if (passed && draws.passAdvancesCounter) this.pos.halfmove++;
    // Checkmate and stalemate come first and override every other end: left for later, they
    // override what the rest decides here (and clear its claim) just the same.
    const noMoveTest = this.noMoveTest;
    this.ending = noMoveTest && !deferNoMoveTest ? this.noMoveEnd() : null;
    this.ending ??= this.automaticEnd();
    // A position reached by a pass is counted only where the dialect says so.
    const seen = passed && !draws.repetitionCountsPasses ? 0 : this.countRepetition();
    if (!this.ending && draws.repetition !== null && seen >= draws.repetition) {
      if (draws.ruleDraws === 'automatic' || seen >= Math.max(draws.repetition, AUTOMATIC_REPETITION)) this.ending = { result: 'draw', reason: 'repetition' };
      else this.claim ??= { result: 'draw', reason: 'repetition' };
    }
    if (this.ending) this.claim = null;
    this.noMoveTestPending = noMoveTest && deferNoMoveTest;
  }

  /** Checkmate or stalemate (orthodox check rule): the side to move has no legal move. */
  private noMoveEnd(): Outcome | null {
    const rules = this.rules;
    const pos = this.pos;
    // A king capture that ignores the check rule is a legal move too (kingCaptureIgnoresCheck).
    if (!hasLegalMove(pos) && !(rules.kingCaptureIgnoresCheck && canTakeKing(pos))) {
      if (inCheck(pos, pos.turn)) {
        if (rules.end.checkmate) return { result: pos.turn === 0 ? 'black' : 'white', reason: 'checkmate' };
      } else if (rules.draws.stalemate) {
        return { result: 'draw', reason: 'stalemate' };
      }
    }
    return null;
  }

  /** The dialect's other ends of a game (the side to move has a legal move, or the check rule does not say). */
  private automaticEnd(): Outcome | null {
    const rules = this.rules;
    const pos = this.pos;
    // A king capture that ignores the check rule is a move too (as in noMoveEnd).
    if (rules.pass.whenNothingMoves !== 'pass' && !hasLegalMove(pos, { ...ORTHODOX, castlingOrthodox: rules.castling.attacks === 'orthodox' }, rules.check === 'orthodox') && !(rules.kingCaptureIgnoresCheck && canTakeKing(pos))) {
      if (rules.pass.whenNothingMoves === 'draw') return { result: 'draw', reason: 'nothing-moves' };
      return { result: pos.turn === 0 ? 'black' : 'white', reason: 'nothing-moves' };
    }
    // Material only changes with a capture or a promotion, both of which reset the counter.
    if (pos.halfmove === 0 && drawnByMaterial(pos, rules)) return { result: 'draw', reason: 'insufficient-material' };
    const limit = rules.draws.moveCounterLimit;
    if (limit !== null && pos.halfmove >= limit) {
      if (rules.draws.ruleDraws === 'automatic' || pos.halfmove >= Math.max(limit, AUTOMATIC_HALFMOVES)) return { result: 'draw', reason: 'move-counter' };
      this.claim = { result: 'draw', reason: 'move-counter' };
    }
    if (rules.draws.turnLimit !== null && this.turnNumber >= rules.draws.turnLimit) return { result: 'draw', reason: 'turn-limit' };
    return null;
  }

  /** Counts the current position; returns how often it has now been seen (0 when the dialect has no repetition rule). */
  private countRepetition(): number {
    if (this.rules.draws.repetition === null) return 0;
    if (this.repetitions === null) {
      this.repetitions = new KeyCounts();
      // Counted at every turn from now on: the position keeps its pieces' key as they move.
      this.pos.keepPieceKey();
    }
    return this.repetitions.add(positionKey(this.pos));
  }
}

/**
 * Start positions already read, per engine (the dialect decides how a DFEN reads): the
 * games of a corpus mostly share a few starts, so each game copies one instead of
 * parsing its DFEN again. Bounded: an engine keeps at most STARTS_KEPT of them.
 */
const STARTS = new WeakMap<TurnEngine, Map<string, Position>>();
const STARTS_KEPT = 64;

/** A fresh position for this start DFEN (the game plays on it). */
function startPosition(engine: TurnEngine, fen: string): Result<Position, CoreError> {
  let starts = STARTS.get(engine);
  if (!starts) STARTS.set(engine, (starts = new Map()));
  const known = starts.get(fen);
  if (known) return ok(known.clone());
  const parsed = parseDialectDfen(engine.rules, fen);
  if (!parsed.ok) return parsed;
  if (starts.size >= STARTS_KEPT) starts.clear();
  starts.set(fen, parsed.value.pos.clone());
  return ok(parsed.value.pos);
}

/** Squares whose rank + file is even (a1, c1, …, b2, …), as bits of either 32-square half of the board. */
const EVEN_SQUARES = 0xaa55aa55 | 0;

const bitCount = (x: number): number => {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
};

/** What one side (or both, color null) has beyond its king, as far as mating goes: read off the piece sets. */
function material(pos: Position, color: 0 | 1 | null): { heavy: boolean; knights: number; minors: number; bishopColors: number } {
  const { low, high } = pos;
  let heavy = 0;
  let knights = 0;
  let bishopCount = 0;
  let bishops = 0;
  for (let c = 0; c < 2; c++) {
    if (color !== null && color !== c) continue;
    const s = c === 0 ? 1 : -1;
    const pawn = s * PAWN + 6;
    const rook = s * ROOK + 6;
    const queen = s * QUEEN + 6;
    heavy |= low[pawn] | high[pawn] | low[rook] | high[rook] | low[queen] | high[queen];
    const knight = s * KNIGHT + 6;
    knights += bitCount(low[knight]) + bitCount(high[knight]);
    const bishop = s * BISHOP + 6;
    bishopCount += bitCount(low[bishop]) + bitCount(high[bishop]);
    // Both halves share the pattern of even squares, so one mask tells the bishops' colours.
    bishops |= low[bishop] | high[bishop];
  }
  const bishopColors = ((bishops & EVEN_SQUARES) !== 0 ? 1 : 0) | ((bishops & ~EVEN_SQUARES) !== 0 ? 2 : 0);
  return { heavy: heavy !== 0, knights, minors: knights + bishopCount, bishopColors };
}

/** Can `color` still mate with what it has (FIDE's flag-fall test)? A pawn, rook or queen, or two minor pieces not all bishops of one colour. */
export function canMate(pos: Position, color: 0 | 1): boolean {
  const m = material(pos, color);
  return m.heavy || (m.minors >= 2 && (m.knights > 0 || m.bishopColors === 3));
}

/** Neither side can ever mate: bare kings, a single minor piece, or bishops all on one colour. */
export function insufficientMaterial(pos: Position): boolean {
  const m = material(pos, null);
  return !m.heavy && (m.minors <= 1 || (m.knights === 0 && m.bishopColors !== 3));
}

/** Is the game drawn by material, as the dialect reads it (`draws.insufficientMaterial`)? */
export function drawnByMaterial(pos: Position, rules: Rules): boolean {
  const test = rules.draws.insufficientMaterial;
  if (test === 'none') return false;
  if (test === 'cannot-mate' || !rules.end.kingCapture) return insufficientMaterial(pos);
  return !canWin(pos, 0, rules) && !canWin(pos, 1, rules);
}

/**
 * Can `color` still win (the flag-fall test)? FIDE's: can it mate. With
 * `draws.insufficientMaterial: "cannot-win"` taking the king counts too, which any piece
 * beside the king can do where a king in check may lose its turn to the dice, and even a
 * lone king where there is no check.
 */
export function canWin(pos: Position, color: 0 | 1, rules: Rules): boolean {
  if (canMate(pos, color)) return true;
  if (rules.draws.insufficientMaterial !== 'cannot-win' || !rules.end.kingCapture) return false;
  if (rules.check === 'none') return true;
  const m = material(pos, color);
  return m.heavy || m.minors > 0;
}

/** Can the side to move take the opponent's king now (geometry only)? */
function canTakeKing(pos: Position): boolean {
  const k = pos.kingSquare[pos.turn ^ 1];
  return k >= 0 && isAttacked(pos, k, pos.turn);
}
