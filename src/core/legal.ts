import { inCheck } from './attacks.js';
import { EN_PASSANT, type Move, moveKind, moveTo } from './move.js';
import { ALL_ROLES, type GenOptions, generateCastling, generateMoves, generatePieceMoves, isPieceMove, slidesTo, STANDARD_PROMOTIONS } from './movegen.js';
import { type Position, pieceSquares } from './position.js';
import { DIR_BETWEEN, RAYS } from './tables.js';
import { BISHOP, type Color, KING, PAWN, QUEEN, ROOK, type Square } from './types.js';

/** Orthodox chess move generation: every move that does not leave one's own king attacked. */
export const ORTHODOX: GenOptions = {
  roles: ALL_ROLES,
  enPassant: true,
  promotions: STANDARD_PROMOTIONS,
  castling: true,
  castlingOrthodox: true,
};

/** Keeps, in place, the moves after which `color`'s king is not attacked; returns the new length. */
export function filterKingSafe(pos: Position, color: Color, moves: Move[], n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const m = moves[i];
    pos.make(m);
    const bad = inCheck(pos, color);
    pos.unmake(m);
    if (!bad) moves[k++] = m;
  }
  return k;
}

export function legalMoves(pos: Position, opts: GenOptions = ORTHODOX, out: Move[] = []): Move[] {
  const n = filterKingSafe(pos, pos.turn, out, generateMoves(pos, pos.turn, opts, out, 0));
  out.length = n;
  return out;
}

/**
 * Does the side to move have any legal move at all? (Mate and stalemate tests, once per
 * turn in check-based dialects.) Piece by piece, stopping at the first legal move, so
 * the usual answer costs one piece's moves, not the whole list.
 */
export function hasLegalMove(pos: Position, opts: GenOptions = ORTHODOX, kingSafe = true): boolean {
  const buf = HAS_LEGAL_BUF;
  const color = pos.turn;
  // The king first: in check it is the likeliest piece to have a way out.
  const king = pos.kingSquare[color];
  if (king >= 0 && (opts.roles & (1 << 6)) !== 0 && anyLegal(pos, generatePieceMoves(pos, king, opts, buf, 0), kingSafe)) return true;
  // Then the other pieces that may move, in square order.
  let low = 0;
  let high = 0;
  for (let role = PAWN; role < KING; role++) {
    if ((opts.roles & (1 << role)) === 0) continue;
    low |= pieceSquares(pos, color === 0 ? role : -role, false);
    high |= pieceSquares(pos, color === 0 ? role : -role, true);
  }
  for (; low !== 0; low &= low - 1) if (anyLegal(pos, generatePieceMoves(pos, 31 - Math.clz32(low & -low), opts, buf, 0), kingSafe)) return true;
  for (; high !== 0; high &= high - 1) if (anyLegal(pos, generatePieceMoves(pos, 63 - Math.clz32(high & -high), opts, buf, 0), kingSafe)) return true;
  return opts.castling && anyLegal(pos, generateCastling(pos, color, opts.castlingOrthodox, buf, 0), kingSafe);
}
const HAS_LEGAL_BUF: Move[] = [];

function anyLegal(pos: Position, n: number, kingSafe: boolean): boolean {
  if (!kingSafe) return n > 0;
  const buf = HAS_LEGAL_BUF;
  const color = pos.turn;
  for (let i = 0; i < n; i++) {
    pos.make(buf[i]);
    const bad = inCheck(pos, color);
    pos.unmake(buf[i]);
    if (!bad) return true;
  }
  return false;
}

/**
 * Is `m` a legal move of the side to move in orthodox chess here, castling aside (false for
 * it): one of `legalMoves(pos)`, so `hasLegalMove(pos)` holds. Checked off the move's
 * geometry and one make, not by listing moves.
 */
export function isOrthodoxPieceMove(pos: Position, m: Move | -1): boolean {
  if (m < 0) return false;
  const from = m & 63;
  const p = pos.board[from];
  const color = pos.turn;
  if (p === 0 || (p > 0 ? 0 : 1) !== color || !isPieceMove(pos, m, ORTHODOX)) return false;
  // A move of another piece than the king, not en passant (which empties two squares), can
  // expose the king only along the line through its square: off check, that line decides
  // without playing the move (the usual case; this runs once a turn).
  const king = pos.kingSquare[color];
  if (king >= 0 && p !== KING && p !== -KING && moveKind(m) !== EN_PASSANT) {
    if (uncoversKing(pos, king, from, moveTo(m), color)) return false;
    if (!inCheck(pos, color)) return true;
  }
  pos.make(m);
  const bad = inCheck(pos, color);
  pos.unmake(m);
  return !bad;
}

/**
 * Would moving the piece on `from` to `to` leave `color`'s king on `king` to a slider behind
 * it? Only where `from` is the first piece on a line from the king, the move leaves that
 * line, and the next piece on it is an enemy queen or a rook (bishop) on a rank or file
 * (diagonal).
 */
function uncoversKing(pos: Position, king: Square, from: Square, to: Square, color: Color): boolean {
  const d = DIR_BETWEEN[king * 64 + from];
  const b = pos.board;
  if (d < 0 || DIR_BETWEEN[king * 64 + to] === d || !slidesTo(b, king, from, d, d + 1)) return false;
  // The first piece beyond `from`, on the same ray.
  const ray = RAYS[from][d];
  const enemy = color === 0 ? -1 : 1;
  for (let j = 0; j < ray.length; j++) {
    const q = b[ray[j]];
    if (q !== 0) return q === enemy * QUEEN || q === enemy * (d < 4 ? ROOK : BISHOP);
  }
  return false;
}

/** Orthodox perft: leaf count of legal move sequences of length `depth`. */
export function perft(pos: Position, depth: number, opts: GenOptions = ORTHODOX): number {
  if (depth === 0) return 1;
  const buffers: Move[][] = [];
  for (let i = 0; i <= depth; i++) buffers.push([]);
  return perftInner(pos, depth, opts, buffers);
}

function perftInner(pos: Position, depth: number, opts: GenOptions, buffers: Move[][]): number {
  const buf = buffers[depth];
  const color = pos.turn;
  const n = generateMoves(pos, color, opts, buf, 0);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const m = buf[i];
    pos.make(m);
    if (!inCheck(pos, color)) {
      if (depth === 1) total++;
      else {
        const savedEp = pos.ep;
        const savedFull = pos.fullmove;
        pos.endTurn();
        total += perftInner(pos, depth - 1, opts, buffers);
        pos.turn = color;
        pos.ep = savedEp;
        pos.fullmove = savedFull;
      }
    }
    pos.unmake(m);
  }
  return total;
}

/** Perft split by root move, for debugging against another engine. */
export function perftDivide(pos: Position, depth: number, opts: GenOptions = ORTHODOX): Array<[Move, number]> {
  const color = pos.turn;
  const out: Array<[Move, number]> = [];
  for (const m of legalMoves(pos, opts)) {
    pos.make(m);
    const savedEp = pos.ep;
    const savedFull = pos.fullmove;
    pos.endTurn();
    out.push([m, depth <= 1 ? 1 : perft(pos, depth - 1, opts)]);
    pos.turn = color;
    pos.ep = savedEp;
    pos.fullmove = savedFull;
    pos.unmake(m);
  }
  return out;
}
