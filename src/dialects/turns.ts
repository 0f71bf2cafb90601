import { type CoreError, makeDfen, parseUci, type Position, type Result, type Die, type Role, splitTurn, uciMove } from '../core/index.js';
import type { Dialect } from './resolve.js';
import { DicePool, parseDialectDfen, type RuleId, type Rules, TurnEngine } from '../rules/index.js';

/**
 * Positions and turns under a dialect, errors as values: the functions the `moves`,
 * `turns` and `check` commands (and the explorer page) call. No Node APIs.
 */

/** A dialect as these functions need it: a loaded `Dialect`, or just its rules. */
export type DialectRules = Pick<Dialect, 'rules'>;

/** The verdict on one turn: legal, or the rule it breaks with the micro-move, a sentence and the alternatives. */
export type TurnJudgement =
  | { legal: true; kingCaptured: boolean; diceSpent: number }
  | {
      legal: false;
      rule: RuleId;
      /** 0-based index of the offending micro-move (the turn's length = a move is missing); null = the turn as a whole. */
      microMove: number | null;
      message: string;
      /** DFEN before the offending micro-move, with the dice still to play. */
      dfen: string;
      /** Legal continuations from there (UCI; [] = pass), capped at 24. */
      allowed: string[][];
    };

// One engine per resolved rules object: engines keep search buffers and a memo.
const engines = new WeakMap<Rules, TurnEngine>();
export function engineFor(rules: Rules): TurnEngine {
  let e = engines.get(rules);
  if (!e) {
    e = new TurnEngine(rules);
    engines.set(rules, e);
  }
  return e;
}

/** A DFEN read for a dialect: no more dice than it rolls, and dice required when it rolls any. */
export function readPosition(dialect: DialectRules, dfen: string): Result<{ pos: Position; dice: Die[] }, CoreError> {
  const parsed = parseDialectDfen(dialect.rules, dfen);
  if (!parsed.ok) return parsed;
  const { pos, dice } = parsed.value;
  if (dialect.rules.dice.count > 0 && (dice === null || dice.length === 0)) {
    return { ok: false, error: { code: 'fen.dice', message: 'the DFEN has no dice: add a 7th field with the dice to play, e.g. "... 0 1 PNB"', field: 'dice' } };
  }
  return { ok: true, value: { pos, dice: dice ?? [] } };
}

/** The legal first micro-moves of a DFEN with dice, as sorted UCI. */
export function legalFirstMoves(dialect: DialectRules, dfen: string): Result<string[], CoreError> {
  const read = readPosition(dialect, dfen);
  if (!read.ok) return read;
  const engine = engineFor(dialect.rules);
  return { ok: true, value: engine.legalFirstMicroMoves(read.value.pos, read.value.dice).map((m) => engine.uci(m)).sort() };
}

/** Every legal full turn (UCI micro-moves; `[]` is the forced pass), at most `limit`. */
export function legalTurns(dialect: DialectRules, dfen: string, options: { limit?: number } = {}): Result<string[][], CoreError> {
  const read = readPosition(dialect, dfen);
  if (!read.ok) return read;
  const engine = engineFor(dialect.rules);
  return { ok: true, value: engine.legalTurns(read.value.pos, read.value.dice, options.limit ?? 100_000).map((t) => t.map((m) => engine.uci(m))) };
}

/**
 * Judges one turn (`"e2e4,b1c3"`, `"pass"`, or an array). Text that is not a move at all
 * is an error (`uci.*`); a readable move the rules refuse is a verdict.
 */
export function judgeTurn(dialect: DialectRules, dfen: string, turn: string | readonly string[]): Result<TurnJudgement, CoreError> {
  const read = readPosition(dialect, dfen);
  if (!read.ok) return read;
  const moves = splitTurn(turn);
  for (const m of moves) {
    const parsed = parseUci(m);
    if (!parsed.ok) return parsed;
  }
  const v = engineFor(dialect.rules).judge(read.value.pos, read.value.dice, moves);
  if (v.ok) return { ok: true, value: { legal: true, kingCaptured: v.kingCaptured, diceSpent: v.diceSpent } };
  const f = v.finding;
  return { ok: true, value: { legal: false, rule: f.rule, microMove: f.microMove, dfen: f.dfen, allowed: f.allowed, message: f.message } };
}

/**
 * The DFEN after the first micro-moves of a turn (the dice they spent taken out of the
 * 7th field, the same side still to move): for stepping through a turn. Each micro-move
 * must be one the dialect allows there (geometry, dice); the maximum rule is not asked.
 */
export function positionAfter(dialect: DialectRules, dfen: string, moves: readonly string[]): Result<string, CoreError> {
  const read = readPosition(dialect, dfen);
  if (!read.ok) return read;
  const { pos, dice } = read.value;
  const engine = engineFor(dialect.rules);
  const pool = DicePool.of(dice);
  for (let i = 0; i < moves.length; i++) {
    const m = uciMove(pos, moves[i]);
    if (m < 0 || !engine.micro.allows(pos, pool, i, m)) {
      return { ok: false, error: { code: 'turn.step', message: `micro-move ${i} "${moves[i]}" cannot be played there`, field: String(i) } };
    }
    pool.pay(engine.micro.costOf(pos, m, pool));
    pos.make(m);
  }
  return { ok: true, value: makeDfen(pos, pool.list(), { castling: dialect.rules.castling.chess960 ? 'shredder' : 'xfen' }) };
}
