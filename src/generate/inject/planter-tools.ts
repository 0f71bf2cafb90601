import {
  ALL_ROLES,
  type Color,
  generateMoves,
  type GenOptions,
  type Move,
  type Position,
  STANDARD_PROMOTIONS,
  uciToMove,
} from '../../core/index.js';
import type { Prng } from '../../dice/index.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { GameState, type RuleId, type Rules } from '../../rules/index.js';
import type { ExpectedFinding } from '../answer-key.js';
import type { GameUnit, PlantContext } from './planter.js';

/** What the planters share: reading a unit's positions, random picks, and editing a copy of its record. */

/** Move geometry with every piece role, en passant and promotions, and no castling. */
export const GEOMETRY: GenOptions = { roles: ALL_ROLES, enPassant: true, promotions: STANDARD_PROMOTIONS, castling: false, castlingOrthodox: false };

/** Does the dialect play one die per micro-move (with dice at all)? */
export const eachDie = (r: Rules): boolean => r.turn.structure === 'each-die' && r.dice.count > 0;

/** A copy of the unit whose record may be edited (the trace is shared, never edited). */
export function clone(unit: GameUnit): GameUnit {
  return { record: structuredClone(unit.record), trace: unit.trace };
}

/** The game state before turn index i (0-based), from the recorded position. */
export function stateAt(pc: PlantContext, unit: GameUnit, i: number): GameState {
  const s = GameState.start(pc.ctx.engine, unit.trace[i].fenBefore);
  if (!s.ok) throw new Error(`inject: cannot re-read ${unit.trace[i].fenBefore}`);
  return s.value;
}

/** The indices 0..n-1 in an order drawn from `prng`. */
export function shuffled(n: number, prng: Prng): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = prng.nextInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Ends the record just after the planted turn k: it keeps turn k+1 when there is one
 * (a last turn may be partial after a resignation, so the planted turn must not be the
 * last), and the player to move after that resigns. The replayer stops at the planted
 * finding, so nothing after it is judged. A planted turn that stays last is caught by
 * the round-trip check and another candidate is tried.
 */
export function cutAfter(record: GameRecord, k: number): void {
  const keep = Math.min(k + 1, record.turns.length);
  record.turns.length = keep;
  record.events = record.events.filter((e) => e.turn < keep || (e.turn === keep && e.microMove === null && !e.type.startsWith('DOUBLE_DECLINE')));
  const lastMover = record.turns[keep - 1].side;
  record.result = lastMover === 'w' ? 'white' : 'black';
  record.termination = 'resign';
}

/** The move as the dialect's engine writes it in UCI. */
export const uciOf = (pc: PlantContext, m: Move): string => pc.ctx.engine.uci(m);

/** Does the turn capture a king (replaying it on its position)? */
export function turnCapturesKing(pc: PlantContext, unit: GameUnit, i: number): boolean {
  const pos = stateAt(pc, unit, i).pos;
  for (const u of unit.record.turns[i].moves) {
    const m = uciToMove(pos, u);
    if (!m.ok) return false;
    if (pc.ctx.engine.micro.capturesKing(pos, m.value)) return true;
    pos.make(m.value);
  }
  return false;
}

/** The answer-key entry a planted candidate promises. */
export function expected(rule: RuleId, turn: number | null, microMove: number | null, note: string): ExpectedFinding {
  return { rule, turn, microMove, note };
}

/** A random pseudo-legal, non-castling move of `color` by a piece of the roles in `roles` (bit set). */
export function anyMove(pos: Position, color: Color, roles: number, prng: Prng): Move | null {
  const out: Move[] = [];
  const n = generateMoves(pos, color, { ...GEOMETRY, roles }, out, 0);
  return n === 0 ? null : out[prng.nextInt(n)];
}
