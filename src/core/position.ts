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
 *
 * Next to the board, each piece's squares as a set (`pieces`), so move generation visits
 * only the pieces the dice move instead of all 64 squares. The board is written through
 * `put`, `make` and `unmake` only, which keep both in step.
 */
export class Position {
  readonly board = new Int8Array(64);
  /**
   * Squares of each piece: two 32-bit halves per piece value p at 2 * (p + 6) (squares
   * 0–31) and 2 * (p + 6) + 1 (squares 32–63). See `pieceSquares`.
   */
  readonly pieces = new Int32Array(26);
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
    p.pieces.set(this.pieces);
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

  /** Puts a piece (0 = nothing) on a square, for position setup. */
  put(sq: Square, piece: number): void {
    const old = this.board[sq];
    if (old !== 0) leave(this.pieces, old, sq);
    this.board[sq] = piece;
    if (piece !== 0) land(this.pieces, piece, sq);
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
      const kSq = rank + (kingside ? 6 : 2);
      const rSq = rank + (kingside ? 5 : 3);
      b[from] = 0;
      b[to] = 0;
      b[kSq] = piece;
      b[rSq] = rook;
      const pieces = this.pieces;
      leave(pieces, piece, from);
      leave(pieces, rook, to);
      land(pieces, piece, kSq);
      land(pieces, rook, rSq);
      this.kingSquare[color] = kSq;
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
    const landed = promo ? (color === 0 ? promo : -promo) : piece;
    b[to] = landed;
    b[from] = 0;
    const pieces = this.pieces;
    if (captured !== 0) leave(pieces, captured, capSq);
    leave(pieces, piece, from);
    land(pieces, landed, to);

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
      const pieces = this.pieces;
      leave(pieces, king, kSq);
      leave(pieces, rook, rSq);
      land(pieces, king, from);
      land(pieces, rook, to);
      this.kingSquare[king > 0 ? 0 : 1] = from;
      return;
    }
    const moved = b[to];
    const color: Color = moved > 0 ? 0 : 1;
    const mover = promo ? (color === 0 ? PAWN : -PAWN) : moved;
    b[from] = mover;
    const captured = undo[u + 2];
    const pieces = this.pieces;
    leave(pieces, moved, to);
    land(pieces, mover, from);
    if (kind === EN_PASSANT) {
      const capSq = color === 0 ? to - 8 : to + 8;
      b[to] = 0;
      b[capSq] = captured;
      if (captured !== 0) land(pieces, captured, capSq);
    } else {
      b[to] = captured;
      if (captured !== 0) land(pieces, captured, to);
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

/** Index in `Position.pieces` of the half holding `sq` of this piece's set. */
const half = (piece: number, sq: Square): number => 2 * (piece + 6) + (sq >> 5);

function land(pieces: Int32Array, piece: number, sq: Square): void {
  pieces[half(piece, sq)] |= 1 << (sq & 31);
}

function leave(pieces: Int32Array, piece: number, sq: Square): void {
  pieces[half(piece, sq)] &= ~(1 << (sq & 31));
}

/**
 * The squares of `piece` (a board value) as one half of its set: `high` false for squares
 * 0–31 (bit s = square s), true for 32–63 (bit s = square 32 + s).
 */
export function pieceSquares(pos: Position, piece: number, high: boolean): number {
  return pos.pieces[2 * (piece + 6) + (high ? 1 : 0)];
}

/** Bits of the en passant set that die when a piece leaves or lands on `sq`. */
function epKillMask(sq: Square): number {
  const r = sq >> 3;
  // rank 3: white target; rank 4: the white pawn that made it; ranks 6/5 likewise for black.
  if (r === 2 || r === 3) return 1 << (sq & 7);
  if (r === 5 || r === 4) return 1 << ((sq & 7) + 8);
  return 0;
}
