import type { Square } from './types.js';

/** Precomputed geometry: leaper targets and slider rays per square. */
const build = (deltas: ReadonlyArray<readonly [number, number]>): Square[][] => {
  const out: Square[][] = [];
  for (let sq = 0; sq < 64; sq++) {
    const f = sq & 7;
    const r = sq >> 3;
    const list: Square[] = [];
    for (const [df, dr] of deltas) {
      const nf = f + df;
      const nr = r + dr;
      if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) list.push(nr * 8 + nf);
    }
    out.push(list);
  }
  return out;
};

export const KNIGHT_TARGETS = build([[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]);
export const KING_TARGETS = build([[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]]);

/** Directions 0–3 are orthogonal (rook), 4–7 diagonal (bishop). */
export const DIRECTIONS: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [1, 0], [0, -1], [-1, 0],
  [1, 1], [1, -1], [-1, -1], [-1, 1],
];

/** RAYS[sq][dir] lists the squares from sq outward in that direction. */
export const RAYS: Square[][][] = [];
for (let sq = 0; sq < 64; sq++) {
  const perDir: Square[][] = [];
  for (const [df, dr] of DIRECTIONS) {
    const ray: Square[] = [];
    let f = (sq & 7) + df;
    let r = (sq >> 3) + dr;
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      ray.push(r * 8 + f);
      f += df;
      r += dr;
    }
    perDir.push(ray);
  }
  RAYS.push(perDir);
}

/** DIR_BETWEEN[a*64+b] is the direction index from a to b along a line, or -1. */
export const DIR_BETWEEN = new Int8Array(64 * 64).fill(-1);
for (let a = 0; a < 64; a++) {
  for (let d = 0; d < 8; d++) for (const b of RAYS[a][d]) DIR_BETWEEN[a * 64 + b] = d;
}
