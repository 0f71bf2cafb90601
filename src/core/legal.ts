import { inCheck } from './attacks.js';
import type { Move } from './move.js';
import { ALL_ROLES, type GenOptions, generateMoves, STANDARD_PROMOTIONS } from './movegen.js';
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

/** Does the side to move have any orthodox legal move at all? (Mate and stalemate tests.) */
export function hasLegalMove(pos: Position, opts: GenOptions = ORTHODOX, kingSafe = true): boolean {
  const buf: Move[] = [];
  const n = generateMoves(pos, pos.turn, opts, buf, 0);
  if (!kingSafe) return n > 0;
  for (let i = 0; i < n; i++) {
    pos.make(buf[i]);
    const bad = inCheck(pos, pos.turn);
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
