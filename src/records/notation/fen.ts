import { parseDfen } from '../../core/index.js';
import type { FenBoards } from '../model/fen-boards.js';
import { fail } from '../problems.js';
import { fenShapeProblem, plainFenEnd, plainFields } from './fen-shape.js';

/**
 * FENs as the sources write them, checked by one entry point, `checkFen`, which says by its
 * type what it checked (as scalachess's `FullFen` and `BoardFen` do): both kinds are trimmed,
 * 4 to 6 fields (a 7th, dice, field is dropped).
 */
declare const checked: unique symbol;
/** A start position the core parses: castling rights match the rooks. */
export type StartFen = string & { readonly [checked]: 'start' };
/** A position recorded at a turn, of a FEN's shape (castling rights not matched to rooks: a full parse per turn would cost more than the rest of the reading). */
export type TurnFen = string & { readonly [checked]: 'turn' };
export type FenKind = 'start' | 'turn';

/**
 * Checks a FEN of a record and returns it trimmed, or fails with `record.bad-fen` (a missing
 * one: `record.missing-field`) naming it by `what` (a function: named only for a problem).
 * A turn's FEN with `boards` has its board written down there as turn `turn`'s on the way
 * (see FenBoards) when the one-pass check is sure.
 */
export function checkFen(text: unknown, kind: 'start', what: string | (() => string)): StartFen;
export function checkFen(text: unknown, kind: 'turn', what: string | (() => string), boards?: FenBoards, turn?: number): TurnFen;
export function checkFen(text: unknown, kind: FenKind, what: string | (() => string)): StartFen | TurnFen;
export function checkFen(text: unknown, kind: FenKind, what: string | (() => string), boards?: FenBoards, turn = 0): string {
  if (kind === 'turn' && typeof text === 'string') {
    // The usual per-turn FEN, in one pass with no substrings; any doubt goes the long way.
    const end = plainFenEnd(text, boards?.squares, boards?.board(turn));
    if (end > 0) {
      const fen = end === text.length ? text : text.slice(0, end);
      if (boards !== undefined) boards.fens[turn] = fen;
      return fen;
    }
  }
  return checkFenByFields(text, kind, typeof what === 'string' ? what : what());
}

/** `checkFen` field by field: the reference the one-pass check is held equal to (tests), and the path of every FEN it is unsure of. */
export function checkFenByFields(text: unknown, kind: FenKind, what: string): string {
  if (kind === 'turn' && typeof text === 'string' && plainFields(text)) {
    // The usual case (single spaces, nothing around): no trimming, no second split.
    const fields = text.split(' ');
    const problem = fenShapeProblem(fields);
    if (problem) fail('record.bad-fen', `${what} "${text}" is not a FEN: ${problem}`);
    return fields.length <= 6 ? text : fields.slice(0, 6).join(' ');
  }
  if (typeof text !== 'string' || text.trim() === '') fail('record.missing-field', `${what} is missing`);
  const trimmed = text.trim();
  const fields = trimmed.split(' ');
  const problem = kind === 'start' ? startProblem(text) : fenShapeProblem(fields.length >= 4 && fields.every((f) => f !== '') ? fields : trimmed.split(/\s+/));
  if (problem) fail('record.bad-fen', `${what} "${text}" is not a FEN: ${problem}`);
  return fields.length <= 6 && !/\s\s|\t/.test(trimmed) ? trimmed : trimmed.split(/\s+/).slice(0, 6).join(' ');
}

/** Start positions found good before: corpora share a few, each is parsed once. */
const goodStarts = new Set<string>();

function startProblem(text: string): string | null {
  if (goodStarts.has(text)) return null;
  const parsed = parseDfen(text);
  if (!parsed.ok) return parsed.error.message;
  if (goodStarts.size > 4096) goodStarts.clear();
  goodStarts.add(text);
  return null;
}
