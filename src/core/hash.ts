import { CASTLING_KEYS, EP_KEYS, LANES, PIECE_KEYS, TURN_KEY } from './zobrist-keys.js';
import type { Position } from './position.js';

/** The Zobrist key of a position (see zobrist-keys.ts): the pieces' part kept by the position when it keeps it (Position.keepPieceKey), else read off its piece sets. */
export function positionKey(pos: Position): number {
  let a = pos.pieceKeyA;
  let b = pos.pieceKeyB;
  if (!pos.keyed) {
    // Every piece on its square, piece by piece from the position's sets (xor: any order).
    a = 0;
    b = 0;
    for (let p = -6; p <= 6; p++) {
      if (p === 0) continue;
      for (let bits = pos.low[p + 6]; bits !== 0; bits &= bits - 1) {
        const i = ((31 - Math.clz32(bits & -bits)) * 13 + p + 6) * LANES;
        a ^= PIECE_KEYS[i];
        b ^= PIECE_KEYS[i + 1];
      }
      for (let bits = pos.high[p + 6]; bits !== 0; bits &= bits - 1) {
        const i = ((63 - Math.clz32(bits & -bits)) * 13 + p + 6) * LANES;
        a ^= PIECE_KEYS[i];
        b ^= PIECE_KEYS[i + 1];
      }
    }
  }
  if (pos.turn === 1) {
    a ^= TURN_KEY[0];
    b ^= TURN_KEY[1];
  }
  // Castling rights and en passant targets: only their set bits.
  for (let bits = pos.castling & 0xffff; bits !== 0; bits &= bits - 1) {
    const i = (31 - Math.clz32(bits & -bits)) * LANES;
    a ^= CASTLING_KEYS[i];
    b ^= CASTLING_KEYS[i + 1];
  }
  for (let bits = pos.ep & 0xffff; bits !== 0; bits &= bits - 1) {
    const i = (31 - Math.clz32(bits & -bits)) * LANES;
    a ^= EP_KEYS[i];
    b ^= EP_KEYS[i + 1];
  }
  return a * 0x4000000 + b;
}

/** `positionKey` by its definition, square by square and bit by bit: the reference its tests hold it to. */
export function positionKeyBySquares(pos: Position): number {
  let a = 0;
  let b = 0;
  for (let sq = 0; sq < 64; sq++) {
    const p = pos.board[sq];
    if (p === 0) continue;
    const i = (sq * 13 + p + 6) * LANES;
    a ^= PIECE_KEYS[i];
    b ^= PIECE_KEYS[i + 1];
  }
  if (pos.turn === 1) {
    a ^= TURN_KEY[0];
    b ^= TURN_KEY[1];
  }
  for (let bit = 0; bit < 16; bit++) {
    if (pos.castling & (1 << bit)) {
      a ^= CASTLING_KEYS[bit * LANES];
      b ^= CASTLING_KEYS[bit * LANES + 1];
    }
    if (pos.ep & (1 << bit)) {
      a ^= EP_KEYS[bit * LANES];
      b ^= EP_KEYS[bit * LANES + 1];
    }
  }
  return a * 0x4000000 + b;
}
