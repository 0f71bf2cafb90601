import { err, ok, type Result } from './errors.js';

/** Knight placements among the five empty squares left after bishops and queen (Scharnagl). */
const KNIGHT_PAIRS: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4],
];

/** The back rank (white, files a–h, upper case) of Chess960 start number 0–959; 518 is classic chess. */
export function chess960BackRank(n: number): Result<string> {
  if (!Number.isInteger(n) || n < 0 || n > 959) return err('start.chess960-number', `Chess960 start number must be 0–959, not ${n}`);
  const rank: string[] = new Array(8).fill('');
  let k = n;
  rank[2 * (k % 4) + 1] = 'B';
  k = Math.floor(k / 4);
  rank[2 * (k % 4)] = 'B';
  k = Math.floor(k / 4);
  const place = (piece: string, index: number): void => {
    let seen = 0;
    for (let f = 0; f < 8; f++) {
      if (rank[f] !== '') continue;
      if (seen++ === index) {
        rank[f] = piece;
        return;
      }
    }
  };
  place('Q', k % 6);
  k = Math.floor(k / 6);
  const [a, b] = KNIGHT_PAIRS[k];
  // Place the second knight first so the first one's index still counts the same empties.
  place('N', b);
  place('N', a);
  for (const piece of ['R', 'K', 'R']) place(piece, 0);
  return ok(rank.join(''));
}

/** The full start FEN of a Chess960 number, castling written with rook files (Shredder style). */
export function chess960Fen(n: number): Result<string> {
  const r = chess960BackRank(n);
  if (!r.ok) return r;
  const rank = r.value;
  const files = [...rank].map((p, f) => (p === 'R' ? String.fromCharCode(97 + f) : '')).join('');
  const castling = files.toUpperCase() + files;
  return ok(`${rank.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${rank} w ${castling} - 0 1`);
}

/** The Chess960 number of a back rank, or -1 when it is not a legal 960 arrangement. */
export function chess960Number(backRank: string): number {
  for (let n = 0; n < 960; n++) {
    const r = chess960BackRank(n);
    if (r.ok && r.value === backRank.toUpperCase()) return n;
  }
  return -1;
}
