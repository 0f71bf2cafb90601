import { ROLE_LETTERS } from '../../core/index.js';
import { QUOTE } from '../char-codes.js';
import { wordViews } from '../model/fen-boards.js';

const wordsOf = wordViews();

/**
 * `plainFenEnd` and `plainFenFieldsEnd` (notation/fen-shape.ts) read off a JSON string's ASCII
 * bytes, for the byte scanners (state maps, ingest wire): the FEN is checked on the way to the string's closing
 * quote, so its bytes are read once (finding the quote first cost as much as the check), and a
 * string is made only for a FEN that passed. Each answers -1 where the text functions answer
 * -1, or anything the scanner leaves to them: then they read the string and decide. A test
 * holds the two to the same answers.
 */

/** Where the last FEN that passed ends: its first six fields (what `checkFen` keeps), relative to the string's first byte. */
export let fenKept = 0;

const PIECES = ROLE_LETTERS.slice(1) + ROLE_LETTERS.slice(1).toUpperCase();
const BAD = 16;
const PAWN = 32;
const WHITE_KING = 64;
const BLACK_KING = 128;
const SLASH = 256;
const SPACE = 512;
/** Byte → its part in a board: squares it covers (bits 0–3), BAD, PAWN, a king, SLASH, SPACE (the board's end). A quote (the string's end) is BAD. */
const BOARD = new Uint16Array(256).fill(BAD);
/** Byte → the core's board value a piece letter puts on its square (white positive, pawn 1 … king 6); 0 for a digit. */
const VALUE = new Int8Array(256);
for (let d = 1; d <= 8; d++) BOARD[48 + d] = d;
for (const ch of PIECES) {
  const c = ch.charCodeAt(0);
  BOARD[c] = 1 | (ch === 'p' || ch === 'P' ? PAWN : 0) | (ch === 'K' ? WHITE_KING : 0) | (ch === 'k' ? BLACK_KING : 0);
  const role = ROLE_LETTERS.indexOf(ch.toLowerCase());
  VALUE[c] = ch === ch.toUpperCase() ? role : -role;
}
BOARD[47] = SLASH;
BOARD[32] = SPACE;
/** The parts of a byte that leave the usual path (a piece or a run of empty squares): on ranks 8 and 1 a pawn too. */
const STOP = BAD | SLASH | SPACE;
const IS_CASTLING = new Uint8Array(256);
for (const ch of 'KQkqABCDEFGHabcdefgh') IS_CASTLING[ch.charCodeAt(0)] = 1;
const IS_PIECE = new Uint8Array(256);
for (const ch of PIECES) IS_PIECE[ch.charCodeAt(0)] = 1;

/**
 * Where each rank of the last board that passed `fenBoardEnd` starts (from the string's first
 * byte), and the kings of each colour on the ranks before it: a board whose first bytes repeat
 * it is read again only from the first rank that may differ.
 */
const rankAt = new Int32Array(8);
const whiteKingsBefore = new Int32Array(8);
const blackKingsBefore = new Int32Array(8);

/**
 * The board of a FEN string whose first byte is at `a` (after the opening quote), as
 * `plainFenEnd` checks it, its squares written to `squares[at, at + 64)` (a1 first, every
 * square): the position of the space after it (before `end`), or -1. With `same` > 0, the
 * last board that passed this check had its squares at `before` and its first `same` bytes
 * were these: the ranks they hold whole are copied, not read.
 */
export function fenBoardEnd(b: Uint8Array, a: number, end: number, squares: Int8Array, at: number, before = 0, same = 0): number {
  // With `same`, the last rank whose start (the slash before it included) lies within the bytes that repeat.
  let rank = 0;
  while (same > 0 && rank < 7 && rankAt[rank + 1] <= same) rank++;
  // The ranks to read are cleared, then only their pieces written: a run of empty squares is a count, not a loop of stores.
  const from = 64 - 8 * rank;
  // Boards start at multiples of 64: whole ranks are whole words.
  if (squares.byteOffset === 0 && ((at | before) & 3) === 0) {
    const words = wordsOf(squares);
    const first = at >> 2;
    const copied = first + (from >> 2);
    for (let w = first; w < copied; w++) words[w] = 0;
    for (let w = copied, v = (before + from) >> 2; w < first + 16; w++, v++) words[w] = words[v];
  } else {
    squares.fill(0, at, at + from);
    squares.copyWithin(at + from, before + from, before + 64);
  }
  let count = 0;
  let whiteKings = whiteKingsBefore[rank];
  let blackKings = blackKingsBefore[rank];
  let stop = rank === 0 || rank === 7 ? STOP | PAWN : STOP; // pawns are refused on ranks 8 and 1
  let row = at + 56 - 8 * rank; // where this rank's a-file square is written
  for (let i = a + rankAt[rank]; i < end; i++) {
    const c = b[i];
    const k = BOARD[c];
    if ((k & stop) !== 0) {
      if (k === SPACE) return rank !== 7 || count !== 8 || whiteKings > 1 || blackKings > 1 ? -1 : i;
      if (k !== SLASH || count !== 8 || rank === 7) return -1;
      rank++;
      rankAt[rank] = i + 1 - a;
      whiteKingsBefore[rank] = whiteKings;
      blackKingsBefore[rank] = blackKings;
      row -= 8;
      count = 0;
      stop = rank === 7 ? STOP | PAWN : STOP;
      continue;
    }
    const n = k & 15;
    // Within this rank's 8 squares only.
    if (count + n > 8) return -1;
    // A digit's value is 0: its first square, cleared already, is written again.
    squares[row + count] = VALUE[c];
    count += n;
    if (k >= WHITE_KING) {
      if (k & WHITE_KING) whiteKings++;
      else blackKings++;
    }
  }
  return -1;
}

/**
 * The fields after a board, from the space after it at `i`, as `plainFenFieldsEnd` checks
 * them: the position of the string's closing quote (before `end`; `fenKept` set), or -1.
 * (Bytes read past `end` are other documents' or none: none of them is taken.)
 */
export function fenFieldsEnd(b: Uint8Array, a: number, i: number, end: number): number {
  const q = fields(b, a, i);
  return q < end ? q : -1;
}

function fields(b: Uint8Array, a: number, i: number): number {
  // Field 2, the side to move.
  const side = b[i + 1];
  if ((side !== 119 && side !== 98) || b[i + 2] !== 32) return -1;
  // Field 3, castling: "-" or 1 to 8 letters.
  i += 3;
  if (b[i] === 45) i++;
  else {
    const from = i;
    while (IS_CASTLING[b[i]] === 1 && i - from <= 8) i++;
    if (i === from || i - from > 8) return -1;
  }
  if (b[i] !== 32) return -1;
  // Field 4, en passant: "-" or squares on rank 3 or 6.
  i++;
  if (b[i] === 45) i++;
  else {
    const from = i;
    for (;;) {
      const f = b[i];
      if (f < 97 || f > 104) break;
      const r = b[i + 1];
      if (r !== 51 && r !== 54) return -1;
      i += 2;
    }
    if (i === from) return -1;
  }
  if (b[i] === QUOTE) return kept(a, i, i);
  if (b[i] !== 32) return -1;
  // Field 5, the half-move counter; field 6, the move number (not "0").
  for (let field = 5; field <= 6; field++) {
    const from = ++i;
    while (b[i] >= 48 && b[i] <= 57) i++;
    if (i === from || (field === 6 && i === from + 1 && b[from] === 48)) return -1;
    if (b[i] === QUOTE) return kept(a, i, i);
    if (b[i] !== 32) return -1;
  }
  // Field 7, dice: "-" or 1 to 6 piece letters, and nothing after.
  const end = i++;
  if (b[i] === 45) i++;
  else {
    const from = i;
    while (IS_PIECE[b[i]] === 1) i++;
    if (i === from || i - from > 6) return -1;
  }
  return b[i] === QUOTE ? kept(a, end, i) : -1;
}

function kept(a: number, end: number, quote: number): number {
  fenKept = end - a;
  return quote;
}
