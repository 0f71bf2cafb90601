import { ROLE_LETTERS } from '../../core/index.js';

/**
 * The shape of a FEN, checked by character codes without building a position: what
 * `checkFen` runs for every recorded turn's FEN (a full parse per turn would cost more than
 * the rest of the reading). Castling rights are not matched to rooks here.
 */

/**
 * A FEN that `fenShapeProblem` accepts with plain fields (single spaces, nothing around,
 * no pawn on a last rank), checked in one pass by character codes: the length of what
 * `checkFen` returns (the first six fields), or -1 when unsure (the field-by-field check
 * then decides and words the problem). Runs for every recorded turn. With `board`, the
 * squares are written to `board[at, at + 64)` on the way (a1 first; the range must hold
 * zeros: only pieces are written), valid only when the answer is not -1.
 */
export function plainFenEnd(s: string, board?: Int8Array, at = 0): number {
  const n = s.length;
  let i = 0;
  let rank = 0;
  let squares = 0;
  let whiteKings = 0;
  let blackKings = 0;
  // Field 1, the board: 8 ranks of 8 squares, at most one king a side. Each character's
  // part is read off a table (few branches: FEN characters come in no predictable order).
  let flags = 0;
  let edge = BOARD_PAWN; // pawns are refused on ranks 8 and 1
  let row = at + 56; // where this rank's a-file square is written
  for (; ; i++) {
    if (i === n) return -1;
    const c = s.charCodeAt(i);
    if (c === 32) break;
    const k = c < 128 ? BOARD_CHAR[c] : BOARD_BAD;
    if (k === BOARD_SLASH) {
      if (squares !== 8 || rank === 7) return -1;
      rank++;
      row -= 8;
      squares = 0;
      edge = rank === 7 ? BOARD_PAWN : 0;
      continue;
    }
    // Within this rank's 8 squares only: a malformed board (answer -1) spoils no other range.
    if (board !== undefined && squares < 8) board[row + squares] = (k >> BOARD_VALUE_SHIFT) - 6;
    squares += k & 15;
    flags |= k & (BOARD_BAD | edge);
    whiteKings += (k >> 6) & 1;
    blackKings += (k >> 7) & 1;
  }
  if (flags !== 0 || rank !== 7 || squares !== 8 || whiteKings > 1 || blackKings > 1) return -1;
  return plainFenFieldsEnd(s, i);
}

/**
 * `plainFenEnd` past the board: the fields after a board that `plainFenEnd` accepted, from
 * the space after it at `i` (a FEN whose board text repeats an accepted one's needs no more).
 */
export function plainFenFieldsEnd(s: string, i: number): number {
  const n = s.length;
  // Field 2, the side to move.
  const side = s.charCodeAt(i + 1);
  if ((side !== 119 && side !== 98) || s.charCodeAt(i + 2) !== 32) return -1;
  // Field 3, castling: "-" or 1 to 8 letters.
  i += 3;
  if (s.charCodeAt(i) === 45) i++;
  else {
    const from = i;
    for (; i < n && i - from <= 8; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128 || IS_CASTLING[c] === 0) break;
    }
    if (i === from || i - from > 8) return -1;
  }
  if (s.charCodeAt(i) !== 32) return -1;
  // Field 4, en passant: "-" or squares on rank 3 or 6.
  i++;
  if (s.charCodeAt(i) === 45) i++;
  else {
    const from = i;
    for (; i < n; i += 2) {
      const f = s.charCodeAt(i);
      if (f < 97 || f > 104) break;
      const r = s.charCodeAt(i + 1);
      if (r !== 51 && r !== 54) return -1;
    }
    if (i === from) return -1;
  }
  if (i === n) return n;
  if (s.charCodeAt(i) !== 32) return -1;
  // Field 5, the half-move counter; field 6, the move number (not "0").
  for (let field = 5; field <= 6; field++) {
    const from = ++i;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
    }
    if (i === from || (field === 6 && i === from + 1 && s.charCodeAt(from) === 48)) return -1;
    if (i === n) return n;
    if (s.charCodeAt(i) !== 32) return -1;
  }
  // Field 7, dice: "-" or 1 to 6 piece letters, and nothing after.
  const end = i++;
  if (s.charCodeAt(i) === 45) i++;
  else {
    const from = i;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128 || IS_PIECE[c] === 0) break;
    }
    if (i === from || i - from > 6) return -1;
  }
  return i === n ? end : -1;
}

const PIECE_LETTERS = ROLE_LETTERS.slice(1) + ROLE_LETTERS.slice(1).toUpperCase();
/** Char code → 1 for a piece letter. */
const IS_PIECE = new Uint8Array(128);
for (const ch of PIECE_LETTERS) IS_PIECE[ch.charCodeAt(0)] = 1;
/** Char code → its part in a FEN board: squares it covers (bits 0–3), or BOARD_BAD, BOARD_PAWN, a king (bit 6 white, 7 black), BOARD_SLASH. */
const BOARD_BAD = 16;
const BOARD_PAWN = 32;
const BOARD_SLASH = 256;
const BOARD_CHAR = new Uint16Array(128).fill(BOARD_BAD);
for (let d = 1; d <= 8; d++) BOARD_CHAR[48 + d] = d;
for (const ch of PIECE_LETTERS) BOARD_CHAR[ch.charCodeAt(0)] = 1 | (ch === 'p' || ch === 'P' ? BOARD_PAWN : 0) | (ch === 'K' ? 64 : 0) | (ch === 'k' ? 128 : 0);
/** Bits 9–12: the core's board value + 6 of what a character puts on its first square (piece letters: P 1 … K 6, black negative; digits: empty). */
const BOARD_VALUE_SHIFT = 9;
for (let c = 0; c < 128; c++) {
  const role = IS_PIECE[c] ? ROLE_LETTERS.indexOf(String.fromCharCode(c).toLowerCase()) : 0;
  const value = c < 97 ? role : -role;
  BOARD_CHAR[c] |= (value + 6) << BOARD_VALUE_SHIFT;
}
BOARD_CHAR[47] = BOARD_SLASH;
/** Char code → 1 for a castling letter (KQkq, A–H, a–h). */
const IS_CASTLING = new Uint8Array(128);
for (const ch of 'KQkqABCDEFGHabcdefgh') IS_CASTLING[ch.charCodeAt(0)] = 1;
const CASTLING = /^(-|[KQkqA-Ha-h]{1,8})$/;
const EN_PASSANT = /^(-|([a-h][36])+)$/;
const DICE = /^(-|[pnbrqkPNBRQK]{1,6})$/;

/** Castling and en passant fields take few values: each is matched once. */
const goodCastling = new Set<string>();
const goodEnPassant = new Set<string>();
function memo(good: Set<string>, field: string, re: RegExp): boolean {
  if (good.has(field)) return true;
  if (!re.test(field)) return false;
  if (good.size > 1024) good.clear();
  good.add(field);
  return true;
}

/** `/^\d+$/` without a regular expression: this runs for every recorded turn. */
function digits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** The FEN's shape as the core parser checks it, except that castling rights are not matched to rooks. */
export function fenShapeProblem(fields: string[]): string | null {
  if (fields.length < 4 || fields.length > 7) return `expected 4 to 7 space-separated fields, found ${fields.length}`;
  // Character codes, not substrings: this runs for every recorded turn.
  const board = fields[0];
  let rank = 0;
  let squares = 0;
  let whiteKings = 0;
  let blackKings = 0;
  let strandedWhite = false;
  let strandedBlack = false;
  let wrongRankPawn: string | null = null;
  for (let i = 0; i <= board.length; i++) {
    const c = i < board.length ? board.charCodeAt(i) : 47;
    if (c === 47) {
      if (squares !== 8) return rank > 7 ? `board must have 8 ranks, found ${board.split('/').length}` : `rank ${8 - rank} has ${squares} squares, not 8`;
      rank++;
      squares = 0;
      continue;
    }
    if (rank > 7) return `board must have 8 ranks, found ${board.split('/').length}`;
    if (c >= 49 && c <= 56) {
      squares += c - 48;
      continue;
    }
    if (c >= 128 || IS_PIECE[c] === 0) return `"${board[i]}" on rank ${8 - rank} is not a piece letter`;
    squares++;
    // A pawn that captured the king on its last rank stays there (the game is over).
    if (c === 80 /* P */ && rank === 0) strandedWhite = true;
    else if (c === 112 /* p */ && rank === 7) strandedBlack = true;
    else if ((c === 112 || c === 80) && (rank === 0 || rank === 7)) wrongRankPawn ??= `a pawn stands on rank ${8 - rank}`;
    else if (c === 75 /* K */) whiteKings++;
    else if (c === 107 /* k */) blackKings++;
  }
  if (rank !== 8) return `board must have 8 ranks, found ${board.split('/').length}`;
  if (whiteKings > 1 || blackKings > 1) return 'more than one king of a colour';
  if (wrongRankPawn) return wrongRankPawn;
  if (strandedWhite && blackKings > 0) return 'a pawn stands on rank 8';
  if (strandedBlack && whiteKings > 0) return 'a pawn stands on rank 1';
  if (fields[1] !== 'w' && fields[1] !== 'b') return `side to move must be "w" or "b", not "${fields[1]}"`;
  if (!memo(goodCastling, fields[2], CASTLING)) return `"${fields[2]}" is not a castling field`;
  if (!memo(goodEnPassant, fields[3], EN_PASSANT)) return `"${fields[3]}" is not an en passant field`;
  if (fields.length > 4 && !digits(fields[4])) return `half-move counter must be a whole number, not "${fields[4]}"`;
  if (fields.length > 5 && (!digits(fields[5]) || fields[5] === '0')) return `move number must be a whole number from 1, not "${fields[5]}"`;
  if (fields.length > 6 && !DICE.test(fields[6])) return `"${fields[6]}" is not a dice field`;
  return null;
}

/** Fields separated by single spaces, with nothing before or after: what `trim` and `split(/\s+/)` would leave as it is. */
export function plainFields(text: string): boolean {
  const n = text.length;
  const visible = (c: number): boolean => c > 32 && c <= 0x7e;
  if (n === 0 || !visible(text.charCodeAt(0)) || !visible(text.charCodeAt(n - 1))) return false;
  let space = false;
  for (let i = 1; i < n - 1; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (space) return false;
      space = true;
    } else if (!visible(c)) return false;
    else space = false;
  }
  return true;
}
