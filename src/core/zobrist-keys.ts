/**
 * Zobrist keys: a 52-bit number per position (board, side to move, castling rights, en
 * passant targets), for repetition counts without building FEN strings. Two 26-bit
 * lanes from a fixed xorshift sequence, so keys are the same in every run. The pieces'
 * part can be kept up to date by the position itself (see Position.keepPieceKey).
 */
export const LANES = 2;
/** Piece p (board value) on square sq: lanes at (sq × 13 + p + 6) × LANES. */
export const PIECE_KEYS = new Int32Array(64 * 13 * LANES);
export const TURN_KEY = new Int32Array(LANES);
export const CASTLING_KEYS = new Int32Array(16 * LANES);
export const EP_KEYS = new Int32Array(16 * LANES);

let state = 0x9e3779b9 | 0;
const next = (): number => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return state & 0x3ffffff;
};
for (const table of [PIECE_KEYS, TURN_KEY, CASTLING_KEYS, EP_KEYS]) for (let i = 0; i < table.length; i++) table[i] = next();
