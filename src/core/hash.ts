import { CASTLING_KEYS, EP_KEYS, LANES, PIECE_KEYS, TURN_KEY } from './zobrist-keys.js';
import type { Position } from './position.js';

/** Zobrist keys of positions (see zobrist-keys.ts): a 52-bit number per position. */
export function positionKey(pos: Position): number {
  // The pieces' part is the position's own, kept up to date move by move.
  let a = pos.pieceKey[0];
  let b = pos.pieceKey[1];
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
