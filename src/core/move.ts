import type { Role, Square } from './types.js';

/**
 * A micro-move packed in one integer: from (6 bits), to (6), promotion role (3), kind (3).
 * Castling is stored king → rook square, so Chess960 needs no special case.
 */
export type Move = number;

export const NORMAL = 0;
export const DOUBLE_STEP = 1;
export const EN_PASSANT = 2;
export const CASTLE = 3;
export type MoveKind = 0 | 1 | 2 | 3;

export const encodeMove = (from: Square, to: Square, promotion = 0, kind: MoveKind = NORMAL): Move =>
  from | (to << 6) | (promotion << 12) | (kind << 15);

export const moveFrom = (m: Move): Square => m & 63;
export const moveTo = (m: Move): Square => (m >> 6) & 63;
export const movePromotion = (m: Move): Role | 0 => ((m >> 12) & 7) as Role | 0;
export const moveKind = (m: Move): MoveKind => ((m >> 15) & 7) as MoveKind;
