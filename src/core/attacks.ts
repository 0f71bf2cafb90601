import type { Position } from './position.js';
import { KING_TARGETS, KNIGHT_TARGETS, RAYS } from './tables.js';
import { BISHOP, type Color, KING, KNIGHT, PAWN, QUEEN, ROOK, type Square } from './types.js';

/**
 * The squares of a list as the two 32-bit halves of the position's piece sets
 * (`Position.low`, `Position.high`): `lo[i]`, `hi[i]` for list i.
 */
function halves(lists: ReadonlyArray<ReadonlyArray<Square>>): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(lists.length);
  const hi = new Int32Array(lists.length);
  lists.forEach((list, i) => {
    for (const sq of list) {
      if (sq < 32) lo[i] |= 1 << sq;
      else hi[i] |= 1 << (sq - 32);
    }
  });
  return { lo, hi };
}

// What reaches a square, as square sets: a piece of a kind attacks it only from one of these,
// so a set of that kind's pieces that misses them all needs no look at the board.
const KNIGHT_FROM = halves(KNIGHT_TARGETS);
const KING_FROM = halves(KING_TARGETS);
/** Per square × direction (sq * 8 + d): the ray's squares. */
const RAY_SETS = halves(RAYS.flat());

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
  const low = pos.low;
  const high = pos.high;
  const knight = s * KNIGHT + 6;
  if (((low[knight] & KNIGHT_FROM.lo[sq]) | (high[knight] & KNIGHT_FROM.hi[sq])) !== 0) return true;
  const king = s * KING + 6;
  if (((low[king] & KING_FROM.lo[sq]) | (high[king] & KING_FROM.hi[sq])) !== 0) return true;
  const queen = s * QUEEN;
  const rook = s * ROOK;
  const bishop = s * BISHOP;
  // The sliders that could reach `sq` along a line: a ray is walked only when one stands on it.
  const lineLo = low[rook + 6] | low[queen + 6];
  const lineHi = high[rook + 6] | high[queen + 6];
  const diagLo = low[bishop + 6] | low[queen + 6];
  const diagHi = high[bishop + 6] | high[queen + 6];
  if ((lineLo | lineHi | diagLo | diagHi) === 0) return false;
  const rays = RAYS[sq];
  const rayLo = RAY_SETS.lo;
  const rayHi = RAY_SETS.hi;
  for (let d = 0; d < 8; d++) {
    const i = sq * 8 + d;
    const slider = d < 4 ? rook : bishop;
    if (d < 4 ? ((lineLo & rayLo[i]) | (lineHi & rayHi[i])) === 0 : ((diagLo & rayLo[i]) | (diagHi & rayHi[i])) === 0) continue;
    const ray = rays[d];
    for (let j = 0; j < ray.length; j++) {
      const p = b[ray[j]];
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
