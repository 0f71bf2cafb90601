import { inCheck } from './attacks.js';
import type { Move } from './move.js';
import { ALL_ROLES, type GenOptions, generateCastling, generateMoves, generatePieceMoves, STANDARD_PROMOTIONS } from './movegen.js';
import type { Position } from './position.js';
import type { Color } from './types.js';

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
  const b = pos.board;
  // The king first: in check it is the likeliest piece to have a way out.
  const king = pos.kingSquare[color];
  if (king >= 0 && (opts.roles & (1 << 6)) !== 0 && anyLegal(pos, generatePieceMoves(pos, king, opts, buf, 0), kingSafe)) return true;
  for (let sq = 0; sq < 64; sq++) {
    const p = b[sq];
    if (p === 0 || (p > 0 ? 0 : 1) !== color || sq === king) continue;
    if ((opts.roles & (1 << (p > 0 ? p : -p))) === 0) continue;
    if (anyLegal(pos, generatePieceMoves(pos, sq, opts, buf, 0), kingSafe)) return true;
  }
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
