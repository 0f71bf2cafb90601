import { CASTLE, DOUBLE_STEP, EN_PASSANT, type Move } from './move.js';
import { type Color, KING, PAWN, ROOK, type Square } from './types.js';
import { LANES, PIECE_KEYS } from './zobrist-keys.js';

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
 * Next to the board, each piece's squares as a set (`low`, `high`), so move generation
 * visits only the pieces the dice move instead of all 64 squares. The board is written
 * through `put`, `make` and `unmake` only, which keep both in step.
 */
export class Position {
  readonly board = new Int8Array(64);
  /**
   * Squares of each piece as bit sets in two 32-bit halves, indexed by piece value + 6:
   * `low` for squares 0–31 (bit s = square s), `high` for 32–63. See `pieceSquares`.
   * (Typed arrays of at most 64 bytes live on the JS heap: cheap to make per game.)
   */
  readonly low = new Int32Array(13);
  readonly high = new Int32Array(13);
  /**
   * The Zobrist key of the pieces on their squares (two lanes, see zobrist-keys.ts), kept as
   * they move once `keepPieceKey` was called (a game whose dialect counts repetitions):
   * a count then needs no walk over the board, and other games pay nothing for it.
   */
  keyed = false;
  pieceKeyA = 0;
  pieceKeyB = 0;
  private words: Int32Array | null = null;
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
  /** Does an en passant target survive a piece standing on it (a dialect option)? Otherwise a piece landing on it kills it. */
  epUnderPiece = false;
  /** Keep the square each micro-move of the turn lands on (`landing`), for a dialect whose turn is one piece's moves. */
  trackLanding = false;
  /** Landing square of the micro-move at each undo depth (with `trackLanding`; made on first use, so other positions allocate nothing for it). */
  private landings: number[] | null = null;
  /**
   * A side may have two kings (a pawn promoted to a king, `promotion.onKingDieBecomes: "king"`):
   * undoing a king's move or capture then restores the king square it replaced (`kingUndo`),
   * which with one king a side is always the move's own square.
   */
  secondKings = false;
  /** With `secondKings`: each side's king square before the move at each undo slot (the mover's at u, the captured side's at u + 1); made on first use. */
  private kingUndo: number[] | null = null;

  // Undo stack, one entry per make(): castling, en passant, half-move counter, captured
  // piece. A plain array of small integers that grows as deep as the turns and searches go.
  private sp = 0;
  private readonly undo: number[] = [];

  clone(): Position {
    const p = new Position();
    p.board.set(this.board);
    p.low.set(this.low);
    p.high.set(this.high);
    p.keyed = this.keyed;
    p.pieceKeyA = this.pieceKeyA;
    p.pieceKeyB = this.pieceKeyB;
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
    p.epUnderPiece = this.epUnderPiece;
    p.trackLanding = this.trackLanding;
    p.secondKings = this.secondKings;
    return p;
  }

  /** From now on, keeps the pieces' key (pieceKeyA, pieceKeyB) as pieces move. */
  keepPieceKey(): void {
    if (this.keyed) return;
    this.keyed = true;
    this.pieceKeyA = 0;
    this.pieceKeyB = 0;
    for (let sq = 0; sq < 64; sq++) if (this.board[sq] !== 0) toggleKey(this, this.board[sq], sq);
  }

  /** The board's 64 bytes as 16 words (made on first use): whole boards compare in 16 steps (a recorded board against this one). */
  get boardWords(): Int32Array {
    return (this.words ??= new Int32Array(this.board.buffer, this.board.byteOffset, 16));
  }

  /** Puts a piece (0 = nothing) on a square, for position setup. */
  put(sq: Square, piece: number): void {
    const old = this.board[sq];
    if (old !== 0) leave(this, old, sq);
    this.board[sq] = piece;
    if (piece !== 0) land(this, piece, sq);
  }

  /** Plays a micro-move for the colour of the piece on its from-square. The side to move does not change. */
  make(m: Move): void {
    const b = this.board;
    const from = m & 63;
    const to = (m >> 6) & 63;
    const promo = (m >> 12) & 7;
    const kind = (m >> 15) & 7;
    const piece = b[from];
    const color: Color = piece > 0 ? 0 : 1;
    const u = this.sp++ * UNDO;
    const undo = this.undo;
    // Castling lands the king on the g- or c-file.
    if (this.trackLanding) (this.landings ??= [])[this.sp - 1] = kind === CASTLE ? (from & 56) + ((to & 7) > (from & 7) ? 6 : 2) : to;
    undo[u] = this.castling;
    undo[u + 1] = this.ep;
    undo[u + 2] = this.halfmove;

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
      leave(this, piece, from);
      leave(this, rook, to);
      land(this, piece, kSq);
      land(this, rook, rSq);
      this.kingSquare[color] = kSq;
      this.castling &= color === 0 ? 0xff00 : 0x00ff;
      this.halfmove += this.castleHalfmoves;
      undo[u + 3] = 0;
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
    undo[u + 3] = captured;
    const landed = promo ? (color === 0 ? promo : -promo) : piece;
    b[to] = landed;
    b[from] = 0;
    if (captured !== 0) leave(this, captured, capSq);
    leave(this, piece, from);
    land(this, landed, to);

    const role = piece > 0 ? piece : -piece;
    if (role === KING) {
      if (this.secondKings) (this.kingUndo ??= [])[u] = this.kingSquare[color];
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
      if (this.secondKings) (this.kingUndo ??= [])[u + 1] = this.kingSquare[other];
      this.kingSquare[other] = -1;
      this.castling &= other === 0 ? 0xff00 : 0x00ff;
    }
    this.halfmove = role === PAWN || captured !== 0 ? 0 : this.halfmove + 1;

    if (this.ep !== 0) {
      this.ep &= this.epUnderPiece ? ~(epPawnKillMask(from) | epPawnKillMask(to) | epPawnKillMask(capSq)) : ~(epKillMask(from) | epKillMask(to) | epKillMask(capSq));
    }
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
    this.castling = undo[u];
    this.ep = undo[u + 1];
    this.halfmove = undo[u + 2];

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
      leave(this, king, kSq);
      leave(this, rook, rSq);
      land(this, king, from);
      land(this, rook, to);
      this.kingSquare[king > 0 ? 0 : 1] = from;
      return;
    }
    const moved = b[to];
    const color: Color = moved > 0 ? 0 : 1;
    const mover = promo ? (color === 0 ? PAWN : -PAWN) : moved;
    b[from] = mover;
    const captured = undo[u + 3];
    leave(this, moved, to);
    land(this, mover, from);
    if (kind === EN_PASSANT) {
      const capSq = color === 0 ? to - 8 : to + 8;
      b[to] = 0;
      b[capSq] = captured;
      if (captured !== 0) land(this, captured, capSq);
    } else {
      b[to] = captured;
      if (captured !== 0) land(this, captured, to);
    }
    // A pawn promoted to a king was no king before the move: its square never was the king square.
    if ((moved === KING || moved === -KING) && promo === 0) this.kingSquare[color] = this.secondKings ? (this.kingUndo ??= [])[u] : from;
    if (captured === KING || captured === -KING) this.kingSquare[captured > 0 ? 0 : 1] = this.secondKings ? (this.kingUndo ??= [])[u + 1] : to;
  }


  /** Micro-moves made since the last `commit` (0 at the end of a turn: the turn passed). */
  get pending(): number {
    return this.sp;
  }

  /** The square the turn's last micro-move landed on (castling: the king's), -1 before its first; needs `trackLanding`. */
  get landing(): number {
    return this.sp > 0 && this.trackLanding ? (this.landings ??= [])[this.sp - 1] : -1;
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
const UNDO = 4;

/** Adds `sq` to the squares of `piece`. */
function land(pos: Position, piece: number, sq: Square): void {
  if (sq < 32) pos.low[piece + 6] |= 1 << sq;
  else pos.high[piece + 6] |= 1 << (sq - 32);
  if (pos.keyed) toggleKey(pos, piece, sq);
}

/** Takes `sq` from the squares of `piece`. */
function leave(pos: Position, piece: number, sq: Square): void {
  if (sq < 32) pos.low[piece + 6] &= ~(1 << sq);
  else pos.high[piece + 6] &= ~(1 << (sq - 32));
  if (pos.keyed) toggleKey(pos, piece, sq);
}

/** Adds or takes (xor) `piece` on `sq` in the pieces' key. */
function toggleKey(pos: Position, piece: number, sq: Square): void {
  const i = (sq * 13 + piece + 6) * LANES;
  pos.pieceKeyA ^= PIECE_KEYS[i];
  pos.pieceKeyB ^= PIECE_KEYS[i + 1];
}

/**
 * The squares of `piece` (a board value) as one half of its set: `high` false for squares
 * 0–31 (bit s = square s), true for 32–63 (bit s = square 32 + s).
 */
export function pieceSquares(pos: Position, piece: number, high: boolean): number {
  return high ? pos.high[piece + 6] : pos.low[piece + 6];
}

/** Bits of the en passant set that die when a piece leaves or lands on `sq`, where the target survives a piece on it: only its pawn's square counts. */
function epPawnKillMask(sq: Square): number {
  const r = sq >> 3;
  if (r === 3) return 1 << (sq & 7);
  if (r === 4) return 1 << ((sq & 7) + 8);
  return 0;
}

/** Bits of the en passant set that die when a piece leaves or lands on `sq`. */
function epKillMask(sq: Square): number {
  const r = sq >> 3;
  // rank 3: white target; rank 4: the white pawn that made it; ranks 6/5 likewise for black.
  if (r === 2 || r === 3) return 1 << (sq & 7);
  if (r === 5 || r === 4) return 1 << ((sq & 7) + 8);
  return 0;
}
