import { err, ok, type Result } from './errors.js';
import { CASTLE, DOUBLE_STEP, EN_PASSANT, encodeMove, type Move, moveFrom, moveKind, movePromotion, moveTo } from './move.js';
import type { Position } from './position.js';
import { KING, PAWN, ROLE_LETTERS, type Role, squareName } from './types.js';

/** The parts of a UCI string before the board gives them meaning. */
export interface UciParts {
  from: number;
  to: number;
  promotion: Role | 0;
}

/** Square from two char codes (file letter any case, rank digit), or -1. */
function squareOf(fileCode: number, rankCode: number): number {
  const f = (fileCode | 32) - 97;
  const r = rankCode - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}

const PROMO_BY_CHAR: Record<string, Role> = { n: 2, b: 3, r: 4, q: 5, k: 6 };

// Why a UCI text is not a move (negative, so a move or a fault fits one number).
const SYNTAX = -1;
const BAD_SQUARE = -2;
const NULL_MOVE = -3;
const BAD_PROMOTION = -4;
const EMPTY_SQUARE = -5;
const PROMOTES_PIECE = -6;

/** The text without surrounding blanks (no new string when there are none, the usual case). */
function uciBody(text: string): string {
  if (text.length < 4 || text.length > 6 || text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32) return text.trim();
  return text;
}

/** The promotion letter(s) after the squares: `e7e8q`, `e7e8=q`. */
const promotionText = (t: string): string => (t.length === 6 && t[4] === '=' ? t[5] : t.slice(4)).toLowerCase();

/** from | to << 6 | promotion << 12, or a fault (< 0). */
function scanUci(text: string): number {
  const t = uciBody(text);
  if (t.length < 4 || t.length > 6) return SYNTAX;
  const from = squareOf(t.charCodeAt(0), t.charCodeAt(1));
  const to = squareOf(t.charCodeAt(2), t.charCodeAt(3));
  if (from < 0 || to < 0) return BAD_SQUARE;
  if (from === to) return NULL_MOVE;
  let promotion = 0;
  if (t.length > 4) {
    const rest = promotionText(t);
    if (rest.length !== 1) return SYNTAX;
    const r = PROMO_BY_CHAR[rest];
    if (r === undefined) return BAD_PROMOTION;
    promotion = r;
  }
  return from | (to << 6) | (promotion << 12);
}

/** Parses `e2e4`, `E2E4`, `e7e8n` (also `e7e8N`, `e7e8=n`). */
export function parseUci(text: string): Result<UciParts> {
  const c = scanUci(text);
  if (c >= 0) return ok({ from: c & 63, to: (c >> 6) & 63, promotion: (c >> 12) as Role | 0 });
  if (c === BAD_SQUARE) return err('uci.bad-square', `"${text}" names a square off the board`, text);
  if (c === NULL_MOVE) return err('uci.null-move', `"${text}" does not move a piece`, text);
  if (c === BAD_PROMOTION) return err('uci.bad-promotion', `"${promotionText(uciBody(text))}" in "${text}" is not a promotion piece (n b r q, or k where a pawn may become a king)`, text);
  return err('uci.syntax', `"${text}" is not a UCI move (like e2e4 or e7e8q)`, text);
}

/**
 * Gives parsed UCI its meaning on this board: castling (king-takes-rook, or the king's
 * two-square move where only one rook of that side holds a right), double steps and en
 * passant. Whether the move is legal is the rules' question, not this one's.
 */
export function resolveUci(pos: Position, parts: UciParts, text = ''): Result<Move> {
  const m = resolveSquares(pos, parts.from, parts.to, parts.promotion);
  if (m >= 0) return ok(m);
  if (m === EMPTY_SQUARE) return err('uci.empty-square', `"${text}" moves from ${squareName(parts.from)}, which is empty`, text);
  return err('uci.bad-promotion', `"${text}" promotes a piece that is not a pawn`, text);
}

/** `resolveUci` as a move or a fault (< 0). */
function resolveSquares(pos: Position, from: number, to: number, promotion: number): number {
  const piece = pos.board[from];
  if (piece === 0) return EMPTY_SQUARE;
  const color = piece > 0 ? 0 : 1;
  const role = piece > 0 ? piece : -piece;
  if (role === KING) {
    const target = pos.board[to];
    if (target === (color === 0 ? 4 : -4) && (pos.castling & (1 << ((to & 7) + color * 8))) !== 0 && to >> 3 === from >> 3) {
      return encodeMove(from, to, 0, CASTLE);
    }
    const df = (to & 7) - (from & 7);
    if (to >> 3 === from >> 3 && (df === 2 || df === -2) && (from & 7) === pos.kingHomeFile[color] && from >> 3 === (color === 0 ? 0 : 7)) {
      const rook = castlingRookOnSide(pos, color, df > 0);
      if (rook >= 0) return encodeMove(from, rook, 0, CASTLE);
    }
  }
  if (promotion && role !== PAWN) return PROMOTES_PIECE;
  if (role === PAWN) {
    // A pawn that takes the king on its last rank does not promote (the game is over), but
    // standard UCI writes a letter for every pawn reaching that rank: both spellings are this move.
    if (promotion && capturesKingOnLastRank(pos, color, to)) return encodeMove(from, to);
    const d = to - from;
    if (d === 16 || d === -16) return encodeMove(from, to, 0, DOUBLE_STEP);
    if ((d === 7 || d === 9 || d === -7 || d === -9) && pos.board[to] === 0 && Math.abs((to & 7) - (from & 7)) === 1) {
      return encodeMove(from, to, 0, EN_PASSANT);
    }
  }
  return encodeMove(from, to, promotion);
}

/** Does a pawn of `color` landing on `to` take the enemy king on its last rank? */
export function capturesKingOnLastRank(pos: Position, color: 0 | 1, to: number): boolean {
  return to >> 3 === (color === 0 ? 7 : 0) && pos.board[to] === (color === 0 ? -KING : KING);
}

/** The single rook with a castling right on one side of the king, or -1 (none or ambiguous). */
function castlingRookOnSide(pos: Position, color: 0 | 1, kingside: boolean): number {
  const rank = color === 0 ? 0 : 56;
  const kFile = pos.kingHomeFile[color];
  let found = -1;
  for (let f = 0; f < 8; f++) {
    if ((pos.castling & (1 << (f + color * 8))) === 0 || f > kFile !== kingside) continue;
    if (found >= 0) return -1;
    found = rank + f;
  }
  return found;
}

export type CastlingNotation = 'king-two-squares' | 'king-takes-rook';

/** Writes a move as UCI. Castling as the king's two-square move (classic) or king-takes-rook (960). */
export function makeUci(m: Move, castling: CastlingNotation = 'king-two-squares'): string {
  const from = moveFrom(m);
  const to = moveTo(m);
  if (moveKind(m) === CASTLE && castling === 'king-two-squares') {
    const kTo = (from & 56) + ((to & 7) > (from & 7) ? 6 : 2);
    return squareName(from) + squareName(kTo);
  }
  const promo = movePromotion(m);
  return squareName(from) + squareName(to) + (promo ? ROLE_LETTERS[promo] : '');
}

/** Parse and resolve in one step. */
export function uciToMove(pos: Position, text: string): Result<Move> {
  const parts = parseUci(text);
  return parts.ok ? resolveUci(pos, parts.value, text) : parts;
}

/**
 * `uciToMove` without a result object, for every recorded micro-move of a replay: the
 * move, or -1 when the text names none on this board (`uciToMove` says why).
 */
export function uciMove(pos: Position, text: string): Move | -1 {
  const c = scanUci(text);
  if (c < 0) return -1;
  const m = resolveSquares(pos, c & 63, (c >> 6) & 63, c >> 12);
  return m < 0 ? -1 : m;
}

/** `e2e4,f1c4` (or `pass`, or empty) → micro-moves; an array is taken as it is. */
export function splitTurn(turn: string | readonly string[]): string[] {
  if (typeof turn !== 'string') return [...turn];
  const t = turn.trim();
  return t === '' || t === 'pass' ? [] : t.split(/[,\s]+/).filter(Boolean);
}
