import type { Position } from './position.js';
import { KING_TARGETS, KNIGHT_TARGETS, RAYS } from './tables.js';
import { BISHOP, type Color, KING, KNIGHT, PAWN, QUEEN, ROOK, type Square } from './types.js';

/** True when a piece of colour `by` attacks `sq` on this board. */
export function isAttacked(pos: Position, sq: Square, by: Color): boolean {
  const b = pos.board;
  const s = by === 0 ? 1 : -1;
  const f = sq & 7;
  // Pawns of `by` attack from one rank behind (from their point of view).
  const pr = by === 0 ? sq - 8 : sq + 8;
  if (pr >= 0 && pr < 64) {
    if (f > 0 && b[pr - 1] === s * PAWN) return true;
    if (f < 7 && b[pr + 1] === s * PAWN) return true;
  }
  const kn = KNIGHT_TARGETS[sq];
  for (let i = 0; i < kn.length; i++) if (b[kn[i]] === s * KNIGHT) return true;
  const kg = KING_TARGETS[sq];
  for (let i = 0; i < kg.length; i++) if (b[kg[i]] === s * KING) return true;
  const rays = RAYS[sq];
  const rook = s * ROOK;
  const bishop = s * BISHOP;
  const queen = s * QUEEN;
  for (let d = 0; d < 8; d++) {
    const ray = rays[d];
    const slider = d < 4 ? rook : bishop;
    for (let i = 0; i < ray.length; i++) {
      const p = b[ray[i]];
      if (p !== 0) {
        if (p === slider || p === queen) return true;
        break;
      }
    }
  }
  return false;
}

/** True when `color`'s king stands attacked. A captured king is never "in check". */
export function inCheck(pos: Position, color: Color): boolean {
  const k = pos.kingSquare[color];
  return k >= 0 && isAttacked(pos, k, (color ^ 1) as Color);
}
