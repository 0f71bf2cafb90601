import { type Die, KING, type Move, PAWN, type Position, ROOK } from '../../core/index.js';
import { DicePool, type MaximumReading, type TurnEngine } from '../../rules/index.js';
import { canCaptureKingThisTurn } from './king-capture.js';
import { maximumOpportunities } from './maximum.js';

/**
 * How an option's opportunities are counted: at turn starts from the legal turns
 * (`turn`), from the clock each turn earns (`clock`), from the endings each turn's end
 * allows (`outcome`: the dialect's own end, or the game going on, or a claimable draw),
 * both turns and endings (`turn+outcome`), at turn starts before the roll from the doubles
 * the cube lets the side to move offer (`cube`), at each roll from the rolls the dice may
 * show (`roll`), once per game at a declined double whose record has a place stating its
 * cost (`decline`); other options are not counted (`none`).
 */
export type OpportunityKind = 'turn' | 'clock' | 'outcome' | 'turn+outcome' | 'cube' | 'roll' | 'decline' | 'none';

export const countsTurns = (kind: OpportunityKind): boolean => kind === 'turn' || kind === 'turn+outcome';
/** Is the option's freedom the dice's (weighed from the dice model), not a player's (weighed at a take rate)? */
export const byDice = (kind: OpportunityKind): boolean => kind === 'roll';
export const countsOutcomes = (kind: OpportunityKind): boolean => kind === 'outcome' || kind === 'turn+outcome';

const OUTCOME_PATHS = new Set([
  'draws.moveCounterLimit',
  'draws.castlingCounts',
  'draws.turnLimit',
  'draws.repetition',
  'draws.stalemate',
  'draws.insufficientMaterial',
  'draws.passAdvancesCounter',
  'draws.repetitionCountsPasses',
  'draws.ruleDraws',
  'draws.agreement',
  'end.checkmate',
  'end.kingCapture',
  'pass.whenNothingMoves',
]);
/** Options that change what a recorded roll says: the values would judge the same record with different dice. */
const ROLL_PATHS = new Set(['dice.facesByDie', 'dice.reads', 'dice.counts', 'dice.whoRolls', 'turn.firstMoveFree', 'pass.onFreeChoice', 'pass.whenCheckedBack']);
/**
 * Options whose values leave different positions after the same recorded turn (a target that
 * dies under one value lives on under the other): each value's turn starts come from its own
 * game, played along (`divergesPositions`).
 */
const DIVERGING_PATHS = new Set(['enPassant.targetUnderPiece']);
export const divergesPositions = (path: string): boolean => DIVERGING_PATHS.has(path);
/** Options whose rival values allow turns of up to six micro-moves by any pieces: far too many to list at every turn start. */
const UNLISTABLE_PATHS = new Set(['turn.onePiece']);
const TURN_PREFIXES = ['maximum', 'maximumCounts', 'kingCaptureExempt', 'check', 'castling.', 'enPassant.', 'promotion.', 'turn.', 'pass.voluntary', 'dice.count', 'dice.faces'];

export function opportunityKind(path: string): OpportunityKind {
  // Which king captures a turn may make, and whether one still open saves a side from mate.
  if (path === 'kingCaptureIgnoresCheck') return 'turn+outcome';
  if (OUTCOME_PATHS.has(path)) return 'outcome';
  if (path === 'clock.increment' || path === 'clock.passesFree' || path === 'clock.passEarnsIncrement') return 'clock';
  if (path === 'cube.ownership' || path === 'cube.cap') return 'cube';
  // Which rolls the dice may show: the types that can move, by the site's own test of "can move".
  if (path === 'dice.draw' || path === 'dice.movableTest') return 'roll';
  if (path === 'cube.declineLoses') return 'decline';
  if (ROLL_PATHS.has(path) || UNLISTABLE_PATHS.has(path)) return 'none';
  if (TURN_PREFIXES.some((p) => (p.endsWith('.') ? path.startsWith(p) : path === p))) return 'turn';
  return 'none';
}

/** Why an option of kind `none` has no counted opportunities, for the outputs. */
export function notCountedWhy(path: string): string {
  if (UNLISTABLE_PATHS.has(path)) return 'a rival value allows turns of up to six micro-moves by any pieces, too many to list at each turn start';
  if (ROLL_PATHS.has(path)) return "its values read a recorded roll differently (which dice it gives, whether the turn rolls, whether it may pass), so no one turn start is shared by the values to count on";
  return 'it is judged on events or on the recorded end';
}

/** Counts how often each path had a cheap answer and how often the exact comparison ran (for the benchmark's time split). */
export interface TurnTestStats {
  cheap: number;
  exact: number;
}

/**
 * One turn start of a game, for one option: for every value j under which the game
 * conforms, and every rival k, does k allow a turn that j forbids? Adds 1 to out[j][k].
 * Cheap tests first (the option cannot matter in this position); the exact comparison
 * of the values' legal turns only where they cannot decide. `positions`: each value's own
 * turn start (null: its game left the record's), for options whose values leave different
 * positions (`divergesPositions`); `pos` serves them all otherwise.
 */
export function turnOpportunities(
  path: string,
  values: readonly unknown[],
  engines: readonly TurnEngine[],
  pos: Position,
  dice: readonly Die[],
  recorded: readonly string[],
  conforming: readonly boolean[],
  out: number[][],
  stats: TurnTestStats,
  positions?: readonly (Position | null)[],
): void {
  const pool = DicePool.of(dice);
  const engine = engines[conforming.indexOf(true)];
  if (positions) {
    // Each value at its own turn start (a value whose game has left the record's has none: not compared).
    if (positions.every((p) => p === null || irrelevant(path, engines, engine, p, pool))) {
      stats.cheap++;
      return;
    }
    stats.exact++;
    exactComparison(engines, positions, dice, conforming, out);
    return;
  }
  if (path === 'maximum') {
    stats.exact++;
    maximumOpportunities(engine, pos, pool, recorded.length, values as MaximumReading[], conforming, out);
    return;
  }
  if (irrelevant(path, engines, engine, pos, pool)) {
    stats.cheap++;
    return;
  }
  stats.exact++;
  if (path === 'pass.voluntary') {
    // A voluntary pass is the one extra turn `true` allows; it is there whenever something can move.
    const buf: Move[] = [];
    if (engine.micro.generate(pos, pool, 0, buf) === 0) return;
    values.forEach((v, j) => conforming[j] && v === false && values.forEach((w, k) => w === true && out[j][k]++));
    return;
  }
  exactComparison(engines, engines.map(() => pos), dice, conforming, out);
}

/** Positions in which no value of the option can change what is legal. */
function irrelevant(path: string, engines: readonly TurnEngine[], engine: TurnEngine, pos: Position, pool: DicePool): boolean {
  const me = pos.turn;
  if (path.startsWith('enPassant.')) {
    const targets = pos.ep & (me === 0 ? 0xff00 : 0x00ff);
    if (targets === 0) return true;
    if (path === 'enPassant.window' && engine.rules.enPassant.die === 'pawn' && !pool.has(PAWN)) return true;
    return !pawnNearTargets(pos, targets, pool.count[PAWN]);
  }
  if (path.startsWith('castling.')) {
    const rights = pos.castling & (me === 0 ? 0x00ff : 0xff00);
    if (rights === 0) return true;
    // Whatever die castling takes, it is a king or a rook die (or none, in dice-less chess).
    return engine.rules.dice.count > 0 && !pool.has(KING) && !pool.has(ROOK);
  }
  if (path.startsWith('promotion.')) return !pawnCanPromote(pos, engine.rules.promotion.die === 'pawn' ? pool.count[PAWN] : pool.total);
  if (path === 'kingCaptureExempt') return !canCaptureKingThisTurn(engine, pos, pool);
  // Counted in dice or in moves, the maximum differs only where castling on two dice is possible.
  if (path === 'maximumCounts') return engine.rules.castling.dice !== 'king-and-rook' || (pos.castling & (me === 0 ? 0x00ff : 0xff00)) === 0 || !pool.has(KING) || !pool.has(ROOK);
  // Without the check rule every king capture is a move already; with it, only a turn that can take the king differs.
  if (path === 'kingCaptureIgnoresCheck') return engine.rules.check !== 'orthodox' || engines.every((e) => !canCaptureKingThisTurn(e, pos, pool));
  return false;
}

/**
 * Could a pawn of the side to move take a target this turn: reach the square beside the
 * target's pawn with its pawn moves but one (the capture), each move a rank on (two for a
 * double step from its first rank) and at most a file aside (a capture)? A bound, never
 * short: where it says no, no value's turn takes en passant.
 */
function pawnNearTargets(pos: Position, targets: number, pawnDice: number): boolean {
  const me = pos.turn;
  const own = me === 0 ? PAWN : -PAWN;
  // Targets of the opponent's double steps: white's lie on rank 3 (bits 0–7), black's on rank 6 (bits 8–15).
  const captureRank = me === 0 ? 4 : 3; // the rank the capturing pawn stands on (0-based)
  const firstRank = me === 0 ? 1 : 6;
  for (let sq = 0; sq < 64; sq++) {
    if (pos.board[sq] !== own) continue;
    const rank = sq >> 3;
    const ranks = me === 0 ? captureRank - rank : rank - captureRank;
    if (ranks < 0) continue;
    // Moves to get there: a rank each, the first one two from the first rank; then the capture.
    // A pawn beside already counts whatever the dice (a die that moves any piece takes it too).
    const moves = ranks === 0 ? 0 : rank === firstRank ? ranks - 1 : ranks;
    if (moves > 0 && moves + 1 > pawnDice) continue;
    for (let bit = 0; bit < 16; bit++) {
      if ((targets & (1 << bit)) === 0) continue;
      const aside = Math.abs((sq & 7) - (bit & 7));
      // It must end a file beside the target's pawn, a file aside per capture at most.
      if (aside >= 1 && aside - 1 <= moves) return true;
      if (aside === 0 && moves >= 1) return true;
    }
  }
  return false;
}

/** Could a pawn of the side to move reach the last rank with `moves` pawn moves? */
function pawnCanPromote(pos: Position, moves: number): boolean {
  if (moves === 0) return false;
  const me = pos.turn;
  const own = me === 0 ? PAWN : -PAWN;
  for (let sq = 0; sq < 64; sq++) {
    if (pos.board[sq] !== own) continue;
    const toLast = me === 0 ? 7 - (sq >> 3) : sq >> 3;
    if (toLast <= moves) return true;
  }
  return false;
}

/**
 * The exact answer: every legal turn of each rival, judged under each value the game
 * conforms under; the first turn a value refuses settles the pair. Each value at its own
 * position (the same one, but for options whose values leave different positions).
 */
function exactComparison(engines: readonly TurnEngine[], positions: readonly (Position | null)[], dice: readonly Die[], conforming: readonly boolean[], out: number[][]): void {
  // Moves are numbers that depend only on the board, and the positions differ at most in their en passant targets: a turn's key is its moves' numbers.
  const turns: Array<Set<string> | null> = engines.map(() => null);
  const legal = (k: number): Set<string> => (turns[k] ??= new Set(engines[k].legalTurns(positions[k]!, dice).map((t) => t.join(','))));
  conforming.forEach((c, j) => {
    if (!c || positions[j] === null) return;
    const mine = legal(j);
    engines.forEach((_, k) => {
      if (k === j || positions[k] === null) return;
      for (const t of legal(k)) {
        if (!mine.has(t)) {
          out[j][k]++;
          return;
        }
      }
    });
  });
}
