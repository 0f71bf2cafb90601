import { isAttacked } from './attacks.js';
import { CASTLE, DOUBLE_STEP, EN_PASSANT, encodeMove, type Move, NORMAL } from './move.js';
import { type Position, pieceSquares } from './position.js';
import { DIR_BETWEEN, KING_TARGETS, KNIGHT_TARGETS, RAYS } from './tables.js';
import { BISHOP, type Color, KING, KNIGHT, PAWN, QUEEN, ROOK, type Square } from './types.js';

/** What the caller allows beyond plain piece geometry. */
export interface GenOptions {
  /** Bit r set: pieces of role r may move (1 << PAWN … 1 << KING). */
  roles: number;
  /** May the side capture the opponent's en passant targets now? */
  enPassant: boolean;
  /** Promotion roles offered, as a bit set over roles (normally N, B, R, Q; the king's bit lets a king promotion fit, which is never generated here). */
  promotions: number;
  /** Generate castling moves (the caller pays for them in dice). */
  castling: boolean;
  /** Castling may not start from, pass or land on an attacked square (orthodox). */
  castlingOrthodox: boolean;
}

export const ALL_ROLES = (1 << PAWN) | (1 << KNIGHT) | (1 << BISHOP) | (1 << ROOK) | (1 << QUEEN) | (1 << KING);
export const STANDARD_PROMOTIONS = (1 << KNIGHT) | (1 << BISHOP) | (1 << ROOK) | (1 << QUEEN);

/**
 * Appends every pseudo-legal micro-move of `color` into `out` and returns the new length.
 * Pseudo-legal: piece geometry only; the king may be captured like any piece.
 */
export function generateMoves(pos: Position, color: Color, opts: GenOptions, out: Move[], n = 0): number {
  const roles = opts.roles;
  // The squares of the pieces that may move, visited in square order (a1 … h8).
  let low = 0;
  let high = 0;
  for (let role = PAWN; role <= KING; role++) {
    if ((roles & (1 << role)) === 0) continue;
    const piece = color === 0 ? role : -role;
    low |= pieceSquares(pos, piece, false);
    high |= pieceSquares(pos, piece, true);
  }
  for (; low !== 0; low &= low - 1) n = generatePieceMoves(pos, 31 - Math.clz32(low & -low), opts, out, n);
  for (; high !== 0; high &= high - 1) n = generatePieceMoves(pos, 63 - Math.clz32(high & -high), opts, out, n);
  if (opts.castling && (roles & (1 << KING)) !== 0) n = generateCastling(pos, color, opts.castlingOrthodox, out, n);
  return n;
}

/** Pseudo-legal non-castling moves of the piece on `from`. */
export function generatePieceMoves(pos: Position, from: Square, opts: GenOptions, out: Move[], n: number): number {
  const b = pos.board;
  const p = b[from];
  const color: Color = p > 0 ? 0 : 1;
  const role = p > 0 ? p : -p;
  switch (role) {
    case PAWN:
      return pawnMoves(pos, from, color, opts, out, n);
    case KNIGHT:
      return leaperMoves(b, from, color, KNIGHT_TARGETS[from], out, n);
    case KING:
      return leaperMoves(b, from, color, KING_TARGETS[from], out, n);
    case BISHOP:
      return sliderMoves(b, from, color, 4, 8, out, n);
    case ROOK:
      return sliderMoves(b, from, color, 0, 4, out, n);
    case QUEEN:
      return sliderMoves(b, from, color, 0, 8, out, n);
  }
  return n;
}

/**
 * Is `m` among generatePieceMoves(pos, from-square of m, opts)? Read off the move's
 * geometry instead of listing the piece's moves: the replayer asks it of every recorded
 * micro-move.
 */
export function isPieceMove(pos: Position, m: Move, opts: GenOptions): boolean {
  const b = pos.board;
  const from = m & 63;
  const to = (m >> 6) & 63;
  const promo = (m >> 12) & 7;
  const kind = m >> 15;
  const p = b[from];
  if (p === 0) return false;
  const color: Color = p > 0 ? 0 : 1;
  const role = p > 0 ? p : -p;
  if (role === PAWN) return isPawnMove(pos, from, to, promo, kind, color, opts);
  if (promo !== 0 || kind !== NORMAL) return false;
  const q = b[to];
  // An own piece there (the from-square included) is never a target.
  if (q !== 0 && (q > 0 ? 0 : 1) === color) return false;
  const df = (to & 7) - (from & 7);
  const dr = (to >> 3) - (from >> 3);
  switch (role) {
    case KNIGHT:
      return df * df + dr * dr === 5;
    case KING:
      return df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
    case BISHOP:
      return slidesTo(b, from, to, 4, 8);
    case ROOK:
      return slidesTo(b, from, to, 0, 4);
    case QUEEN:
      return slidesTo(b, from, to, 0, 8);
  }
  return false;
}

/** Is `to` on one of the rays d0 … d1 - 1 from `from` with nothing in between? */
export function slidesTo(b: Int8Array, from: Square, to: Square, d0: number, d1: number): boolean {
  const d = DIR_BETWEEN[from * 64 + to];
  if (d < d0 || d >= d1) return false;
  const ray = RAYS[from][d];
  for (let i = 0; ray[i] !== to; i++) if (b[ray[i]] !== 0) return false;
  return true;
}

/** isPieceMove for a pawn: the moves pawnMoves lists. */
function isPawnMove(pos: Position, from: Square, to: Square, promo: number, kind: number, color: Color, opts: GenOptions): boolean {
  const b = pos.board;
  const dir = color === 0 ? 8 : -8;
  const one = from + dir;
  if (one < 0 || one > 63) return false;
  const diagonal = (to === one - 1 || to === one + 1) && to >> 3 === one >> 3;
  switch (kind) {
    case DOUBLE_STEP:
      return promo === 0 && to === one + dir && from >> 3 === (color === 0 ? 1 : 6) && b[one] === 0 && b[to] === 0;
    case EN_PASSANT:
      return promo === 0 && diagonal && b[to] === 0 && opts.enPassant && isEnemyTarget(pos, color, to);
    case NORMAL:
      if (to === one) return b[one] === 0 && promotionFits(to, 0, promo, opts.promotions);
      if (!diagonal) return false;
      return b[to] !== 0 && (b[to] > 0 ? 0 : 1) !== color && promotionFits(to, b[to], promo, opts.promotions);
  }
  return false;
}

/**
 * What pushPawn writes: on a last rank (a king capture aside) one move per promotion role, else
 * the plain move. A king promotion (a dialect's `promotions` with the king's bit) fits too,
 * though pushPawn never writes one: the dice rules add it.
 */
function promotionFits(to: Square, captured: number, promo: number, promotions: number): boolean {
  const r = to >> 3;
  if ((r === 7 || r === 0) && captured !== KING && captured !== -KING) return promo >= KNIGHT && promo <= KING && (promotions & (1 << promo)) !== 0;
  return promo === 0;
}

function leaperMoves(b: Int8Array, from: Square, color: Color, targets: Square[], out: Move[], n: number): number {
  for (let i = 0; i < targets.length; i++) {
    const to = targets[i];
    const q = b[to];
    if (q === 0 || (q > 0 ? 0 : 1) !== color) out[n++] = from | (to << 6);
  }
  return n;
}

function sliderMoves(b: Int8Array, from: Square, color: Color, d0: number, d1: number, out: Move[], n: number): number {
  const rays = RAYS[from];
  for (let d = d0; d < d1; d++) {
    const ray = rays[d];
    for (let i = 0; i < ray.length; i++) {
      const to = ray[i];
      const q = b[to];
      if (q === 0) {
        out[n++] = from | (to << 6);
        continue;
      }
      if ((q > 0 ? 0 : 1) !== color) out[n++] = from | (to << 6);
      break;
    }
  }
  return n;
}

function pushPawn(from: Square, to: Square, captured: number, promotions: number, out: Move[], n: number): number {
  const r = to >> 3;
  // A pawn that captures the king on the last rank does not promote: the game is over.
  if ((r === 7 || r === 0) && captured !== KING && captured !== -KING) {
    for (let role = QUEEN; role >= KNIGHT; role--) {
      if (promotions & (1 << role)) out[n++] = from | (to << 6) | (role << 12);
    }
    return n;
  }
  out[n++] = from | (to << 6);
  return n;
}

function pawnMoves(pos: Position, from: Square, color: Color, opts: GenOptions, out: Move[], n: number): number {
  const b = pos.board;
  const dir = color === 0 ? 8 : -8;
  const f = from & 7;
  const r = from >> 3;
  const one = from + dir;
  if (one < 0 || one > 63) return n;
  if (b[one] === 0) {
    n = pushPawn(from, one, 0, opts.promotions, out, n);
    const two = one + dir;
    if (r === (color === 0 ? 1 : 6) && b[two] === 0) out[n++] = encodeMove(from, two, 0, DOUBLE_STEP);
  }
  for (let side = -1; side <= 1; side += 2) {
    const cf = f + side;
    if (cf < 0 || cf > 7) continue;
    const to = one + side;
    const q = b[to];
    if (q !== 0) {
      if ((q > 0 ? 0 : 1) !== color) n = pushPawn(from, to, q, opts.promotions, out, n);
    } else if (opts.enPassant && isEnemyTarget(pos, color, to)) {
      out[n++] = encodeMove(from, to, 0, EN_PASSANT);
    }
  }
  return n;
}

/** Is `to` a live en passant target made by `color`'s opponent, its pawn still in place? */
function isEnemyTarget(pos: Position, color: Color, to: Square): boolean {
  const r = to >> 3;
  if (color === 0) {
    return r === 5 && (pos.ep & (1 << ((to & 7) + 8))) !== 0 && pos.board[to - 8] === -PAWN;
  }
  return r === 2 && (pos.ep & (1 << (to & 7))) !== 0 && pos.board[to + 8] === PAWN;
}

/**
 * Castling written king → rook square. Conditions shared by classic and Chess960:
 * the right is held, king and rook stand on their home squares, every square either
 * piece crosses or lands on is empty apart from those two. Attacks are checked only
 * for the orthodox option: the king's start, path and landing square.
 */
export function generateCastling(pos: Position, color: Color, orthodox: boolean, out: Move[], n: number): number {
  const rights = (pos.castling >> (color * 8)) & 0xff;
  if (rights === 0) return n;
  const rank = color === 0 ? 0 : 56;
  const kFrom = pos.kingSquare[color];
  if (kFrom !== rank + pos.kingHomeFile[color]) return n;
  const b = pos.board;
  for (let file = 0; file < 8; file++) {
    if ((rights & (1 << file)) === 0) continue;
    const rFrom = rank + file;
    if (b[rFrom] !== (color === 0 ? ROOK : -ROOK)) continue;
    const kingside = file > (kFrom & 7);
    const kTo = rank + (kingside ? 6 : 2);
    const rTo = rank + (kingside ? 5 : 3);
    const lo = Math.min(kFrom, kTo, rFrom, rTo);
    const hi = Math.max(kFrom, kTo, rFrom, rTo);
    let clear = true;
    for (let s = lo; s <= hi && clear; s++) if (s !== kFrom && s !== rFrom && b[s] !== 0) clear = false;
    if (!clear) continue;
    if (orthodox && !kingPathSafe(pos, color, kFrom, kTo)) continue;
    out[n++] = encodeMove(kFrom, rFrom, 0, CASTLE);
  }
  return n;
}

function kingPathSafe(pos: Position, color: Color, kFrom: Square, kTo: Square): boolean {
  const enemy = (color ^ 1) as Color;
  // Never out of check, also when the king does not move (Chess960: a rook landing between may block the check).
  if (isAttacked(pos, kFrom, enemy)) return false;
  if (kFrom === kTo) return true;
  const step = kTo > kFrom ? 1 : -1;
  // Through and into: the landing square too, which dialects without check test nowhere else.
  for (let s = kFrom + step; ; s += step) {
    if (isAttacked(pos, s, enemy)) return false;
    if (s === kTo) return true;
  }
}
