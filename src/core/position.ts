import { CASTLE, DOUBLE_STEP, EN_PASSANT, type Move } from './move.js';
import { type Color, KING, PAWN, ROOK, type Square } from './types.js';

/**
 * One mutable position. A game replays on a single instance with make/unmake;
 * copies are explicit (`clone`).
 *
 * Castling rights are a 16-bit set of rook files (bits 0–7 white, 8–15 black), so a
 * Chess960 right is just another file. En passant targets are a 16-bit set of files
 * (bits 0–7: targets on rank 3 created by white, 8–15: rank 6 created by black); the
 * pawn that made a target stands right in front of it, so the file says it all and
 * several targets can be live at once.
 */
export class Position {
  board = new Int8Array(64);
  turn: Color = 0;
  castling = 0;
  ep = 0;
  halfmove = 0;
  fullmove = 1;
  /** Square of each side's king, -1 once captured. */
  kingSquare: number[] = [-1, -1];
  /** File the king must stand on (back rank) for a castling right to be usable. */
  kingHomeFile: number[] = [4, 4];
  /** How many half-moves one castling adds to the counter (1 or 2, a dialect option). */
  castleHalfmoves = 1;

  // Undo stack, one entry per make() in one array (a game makes one position, copies too):
  // castling | ep << 16, the half-move counter, the captured piece.
  private sp = 0;
  private undo = new Int32Array(64 * UNDO);

  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.turn = this.turn;
    p.castling = this.castling;
    p.ep = this.ep;
    p.halfmove = this.halfmove;
    p.fullmove = this.fullmove;
    p.kingSquare[0] = this.kingSquare[0];
    p.kingSquare[1] = this.kingSquare[1];
    p.kingHomeFile[0] = this.kingHomeFile[0];
    p.kingHomeFile[1] = this.kingHomeFile[1];
    p.castleHalfmoves = this.castleHalfmoves;
    return p;
  }

  private grow(): void {
    const bigger = new Int32Array(this.undo.length * 2);
    bigger.set(this.undo);
    this.undo = bigger;
  }

  /** Plays a micro-move for the colour of the piece on its from-square. The side to move does not change. */
  make(m: Move): void {
    if ((this.sp + 1) * UNDO > this.undo.length) this.grow();
    const b = this.board;
    const from = m & 63;
    const to = (m >> 6) & 63;
    const promo = (m >> 12) & 7;
    const kind = (m >> 15) & 7;
    const piece = b[from];
    const color: Color = piece > 0 ? 0 : 1;
    const u = this.sp++ * UNDO;
    const undo = this.undo;
    undo[u] = this.castling | (this.ep << 16);
    undo[u + 1] = this.halfmove;

    if (kind === CASTLE) {
      const rank = from & 56;
      const kingside = (to & 7) > (from & 7);
      const rook = b[to];
      b[from] = 0;
      b[to] = 0;
      b[rank + (kingside ? 6 : 2)] = piece;
      b[rank + (kingside ? 5 : 3)] = rook;
      this.kingSquare[color] = rank + (kingside ? 6 : 2);
      this.castling &= color === 0 ? 0xff00 : 0x00ff;
      this.halfmove += this.castleHalfmoves;
      undo[u + 2] = 0;
      return;
    }

    let captured: number;
    let capSq = to;
    if (kind === EN_PASSANT) {
      capSq = color === 0 ? to - 8 : to + 8;
      captured = b[capSq];
      b[capSq] = 0;
    } else {
      captured = b[to];
    }
    undo[u + 2] = captured;
    b[to] = promo ? (color === 0 ? promo : -promo) : piece;
    b[from] = 0;

    const role = piece > 0 ? piece : -piece;
    if (role === KING) {
      this.kingSquare[color] = to;
      this.castling &= color === 0 ? 0xff00 : 0x00ff;
    }
    if (this.castling !== 0) {
      // A piece leaving or being captured on a right's rook square drops that right.
      if (from < 8 || from >= 56) this.castling &= ~(1 << ((from & 7) + (from < 8 ? 0 : 8)));
      if (to < 8 || to >= 56) this.castling &= ~(1 << ((to & 7) + (to < 8 ? 0 : 8)));
    }
    if (captured === KING || captured === -KING) {
      const other: Color = captured > 0 ? 0 : 1;
      this.kingSquare[other] = -1;
      this.castling &= other === 0 ? 0xff00 : 0x00ff;
    }
    this.halfmove = role === PAWN || captured !== 0 ? 0 : this.halfmove + 1;

    if (this.ep !== 0) this.ep &= ~(epKillMask(from) | epKillMask(to) | epKillMask(capSq));
    if (kind === DOUBLE_STEP) this.ep |= 1 << ((to & 7) + (color === 0 ? 0 : 8));
  }

  unmake(m: Move): void {
    const u = --this.sp * UNDO;
    const undo = this.undo;
    const b = this.board;
    const from = m & 63;
    const to = (m >> 6) & 63;
    const promo = (m >> 12) & 7;
    const kind = (m >> 15) & 7;
    this.castling = undo[u] & 0xffff;
    this.ep = undo[u] >>> 16;
    this.halfmove = undo[u + 1];

    if (kind === CASTLE) {
      const rank = from & 56;
      const kingside = (to & 7) > (from & 7);
      const kSq = rank + (kingside ? 6 : 2);
      const rSq = rank + (kingside ? 5 : 3);
      const king = b[kSq];
      const rook = b[rSq];
      b[kSq] = 0;
      b[rSq] = 0;
      b[from] = king;
      b[to] = rook;
      this.kingSquare[king > 0 ? 0 : 1] = from;
      return;
    }
    const moved = b[to];
    const color: Color = moved > 0 ? 0 : 1;
    b[from] = promo ? (color === 0 ? PAWN : -PAWN) : moved;
    const captured = undo[u + 2];
    if (kind === EN_PASSANT) {
      b[to] = 0;
      b[color === 0 ? to - 8 : to + 8] = captured;
    } else {
      b[to] = captured;
    }
    if (moved === KING || moved === -KING) this.kingSquare[color] = from;
    if (captured === KING || captured === -KING) this.kingSquare[captured > 0 ? 0 : 1] = to;
  }


  /** Forgets the undo history (after a turn is accepted, for long replays). */
  commit(): void {
    this.sp = 0;
  }

  /**
   * Ends the side to move's turn: the opponent's en passant targets (the ones this side
   * could capture) expire, the move passes, and the move number advances after black.
   */
  endTurn(): void {
    this.ep &= this.turn === 0 ? 0x00ff : 0xff00;
    if (this.turn === 1) this.fullmove++;
    this.turn = (this.turn ^ 1) as Color;
  }

  /** True when the piece on `sq` is a rook of `color` that still holds a castling right. */
  hasCastlingRook(color: Color, sq: Square): boolean {
    return (this.castling & (1 << ((sq & 7) + color * 8))) !== 0 && this.board[sq] === (color === 0 ? ROOK : -ROOK);
  }
}

/** Numbers per undo entry. */
const UNDO = 3;

/** Bits of the en passant set that die when a piece leaves or lands on `sq`. */
function epKillMask(sq: Square): number {
  const r = sq >> 3;
  // rank 3: white target; rank 4: the white pawn that made it; ranks 6/5 likewise for black.
  if (r === 2 || r === 3) return 1 << (sq & 7);
  if (r === 5 || r === 4) return 1 << ((sq & 7) + 8);
  return 0;
}
