import { parseDfen } from '../core/index.js';
import type { FenBoards } from './fen-boards.js';
import { describe } from './fields.js';
import type { Side } from './game-record.js';
import { fail } from './items.js';

/**
 * Notation normalisation shared by the readers: dice encodings, square case, UCI
 * syntax, FEN validity. No game rules here. Every normalisation adds a note so a
 * record says which encodings its source used.
 */

export type DiceOrder = 'roll' | 'sorted' | 'unknown';
export interface ParsedDice {
  dice: number[];
  order: DiceOrder;
}

const LETTERS = 'pnbrqk';
/** Piece letters of faces 1–6, for writers. */
export const DIE_LETTERS = ['', 'p', 'n', 'b', 'r', 'q', 'k'] as const;

export function dieLetter(face: number, side: Side): string {
  const l = DIE_LETTERS[face] ?? '?';
  return side === 'w' ? l.toUpperCase() : l;
}

/** Letters sorted by piece value (P<N<B<R<Q<K), cased by side: the DFEN convention. */
export function diceLetters(dice: readonly number[], side: Side): string {
  return [...dice]
    .sort((a, b) => a - b)
    .map((d) => dieLetter(d, side))
    .join('');
}

const nonDecreasing = (xs: readonly number[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1] <= x);

/**
 * Reads dice in any encoding the sources use: ints, digit strings (`"125"`, old
 * exports), letters sorted by value, alphabetically (`"BKN"`) or in roll order, cased
 * by side or upper-cased regardless of side. `rollOrder` says the source documents
 * roll order, so no guess is needed.
 */
export function parseDice(value: unknown, side: Side | null, notes: Set<string>, rollOrder = false): ParsedDice {
  let tokens: (string | number)[];
  if (Array.isArray(value)) tokens = value as (string | number)[];
  else if (typeof value === 'string') tokens = [...value.replace(/[\s,;|]/g, '')];
  else if (typeof value === 'number' && Number.isInteger(value)) tokens = [...String(value)];
  else fail('record.bad-dice', `dice must be a list or a string, not ${describe(value)}`);
  if (tokens.length > 6) fail('record.bad-dice', `${tokens.length} dice is more than any dialect rolls`);
  const dice: number[] = [];
  let kind: 'ints' | 'digits' | 'letters' | null = null;
  let upper = 0;
  let lower = 0;
  for (const t of tokens) {
    let face: number;
    let k: 'ints' | 'digits' | 'letters';
    if (typeof t === 'number') {
      face = t;
      k = 'ints';
    } else if (typeof t === 'string' && /^[1-6]$/.test(t)) {
      face = Number(t);
      k = 'digits';
    } else if (typeof t === 'string' && t.length === 1 && LETTERS.includes(t.toLowerCase())) {
      face = LETTERS.indexOf(t.toLowerCase()) + 1;
      k = 'letters';
      if (t === t.toUpperCase()) upper++;
      else lower++;
    } else {
      fail('record.bad-dice', `${describe(t)} is not a die (1–6 or a piece letter P N B R Q K)`);
    }
    if (!Number.isInteger(face) || face < 1 || face > 6) fail('record.bad-dice', `${describe(t)} is not a die face 1–6`);
    if (kind !== null && kind !== k) fail('record.bad-dice', `dice ${describe(value)} mix ${kind} and ${k}`);
    kind = k;
    dice.push(face);
  }
  if (kind === null) return { dice, order: rollOrder ? 'roll' : 'unknown' };
  notes.add(`dice:${kind}`);
  if (kind === 'letters') {
    if (side === 'b' && upper > 0 && lower === 0) notes.add('dice:upper-case-for-black');
    else if (side === 'w' && lower > 0 && upper === 0) notes.add('dice:lower-case-for-white');
    else if (upper > 0 && lower > 0) notes.add('dice:mixed-case');
  }
  if (rollOrder) return { dice, order: 'roll' };
  if (kind !== 'letters') return { dice, order: nonDecreasing(dice) ? 'unknown' : 'roll' };
  const byValue = nonDecreasing(dice);
  const alpha = tokens.map((t) => String(t).toLowerCase());
  const byAlpha = alpha.every((x, i) => i === 0 || alpha[i - 1] <= x);
  if (byValue && byAlpha) return { dice, order: dice.length > 1 && new Set(dice).size > 1 ? 'sorted' : 'unknown' };
  if (byValue) {
    notes.add('dice:letters-value-order');
    return { dice, order: 'sorted' };
  }
  if (byAlpha) {
    notes.add('dice:letters-alphabetical');
    return { dice, order: 'sorted' };
  }
  return { dice, order: 'roll' };
}

const UCI = /^([a-hA-H][1-8])([a-hA-H][1-8])=?([nbrqNBRQ]?)$/;

/** A UCI micro-move in any case → lower case; notes the square case it saw. */
export function normaliseUci(text: unknown, notes: Set<string>): string {
  // The usual case, canonical already (lower case, nothing around): no regular expression.
  if (typeof text === 'string' && canonicalMove(text)) return text;
  if (typeof text !== 'string') fail('record.bad-move', `move ${describe(text)} is not text`);
  const m = UCI.exec(text.trim());
  if (!m) fail('record.bad-move', `"${text}" is not a UCI move (like e2e4 or e7e8q)`);
  const from = m[1];
  const to = m[2];
  if (from.toLowerCase() === to.toLowerCase()) fail('record.bad-move', `"${text}" does not move a piece`);
  const lowered = `${from}${to}`.toLowerCase();
  if (lowered !== `${from}${to}`) notes.add('squares:upper-case');
  return lowered + m[3].toLowerCase();
}

/** `CANONICAL_UCI` by character codes, and not a move of a square to itself (what `normaliseUci` refuses). */
function canonicalMove(m: string): boolean {
  if (m.length !== 4 && m.length !== 5) return false;
  const f0 = m.charCodeAt(0);
  const r0 = m.charCodeAt(1);
  const f1 = m.charCodeAt(2);
  const r1 = m.charCodeAt(3);
  if (f0 < 97 || f0 > 104 || f1 < 97 || f1 > 104 || r0 < 49 || r0 > 56 || r1 < 49 || r1 > 56 || (f0 === f1 && r0 === r1)) return false;
  if (m.length === 4) return true;
  const p = m.charCodeAt(4);
  return p === 110 || p === 98 || p === 114 || p === 113;
}

/** The square (a1 = 0) of a lower-case file letter's and a rank digit's character codes, or -1. */
export function squareOfCodes(file: number, rank: number): number {
  const f = file - 97;
  const r = rank - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}

/** UCI of a move between two squares (0–63 each, a1 = 0), lower case: each string made once and shared. */
export function uciOfSquares(from: number, to: number): string {
  return (UCI_OF_SQUARES[from * 64 + to] ??= squareName(from) + squareName(to));
}
const UCI_OF_SQUARES: string[] = [];
const squareName = (sq: number): string => String.fromCharCode(97 + (sq & 7), 49 + (sq >> 3));

/** Fast syntax check for canonical moves (native records). */
export const CANONICAL_UCI = /^[a-h][1-8][a-h][1-8][nbrq]?$/;

/**
 * Checks a FEN (4–7 fields) and returns it trimmed; a 7th dice field is dropped.
 * `full` runs the core parser (start positions: castling rights must match rooks);
 * otherwise a fast check of the same shape without building a position (per-turn
 * FENs, where a full parse per turn would cost more than the rest of the reading).
 */
export function checkFen(text: unknown, what: string, full = true): string {
  return full ? checkFenByFields(text, what, true) : checkTurnFen(text, () => what);
}

/**
 * `checkFen(text, what(), false)`, with the field named only for a problem. With `read`, turn
 * `turn`'s board is written down there on the way (see FenBoards) when the fast check is sure.
 */
export function checkTurnFen(text: unknown, what: () => string, read?: FenBoards, turn = 0): string {
  if (typeof text === 'string') {
    // The usual per-turn FEN, in one pass with no substrings; any doubt goes the long way.
    const end = plainFenEnd(text, read?.squares, read?.board(turn));
    if (end > 0) {
      const fen = end === text.length ? text : text.slice(0, end);
      if (read !== undefined) read.fens[turn] = fen;
      return fen;
    }
  }
  return checkFenByFields(text, what(), false);
}

/** `checkFen` field by field: the reference `plainFenEnd` is held equal to (and the path of every FEN it is unsure of). */
export function checkFenByFields(text: unknown, what: string, full = true): string {
  if (!full && typeof text === 'string' && plainFields(text)) {
    // The usual case (single spaces, nothing around): no trimming, no second split.
    const fields = text.split(' ');
    const problem = quickFenProblem(fields);
    if (problem) fail('record.bad-fen', `${what} "${text}" is not a FEN: ${problem}`);
    return fields.length <= 6 ? text : fields.slice(0, 6).join(' ');
  }
  if (typeof text !== 'string' || text.trim() === '') fail('record.missing-field', `${what} is missing`);
  const trimmed = text.trim();
  const fields = trimmed.split(' ');
  const problem = full ? fullFenProblem(text) : quickFenProblem(fields.length >= 4 && fields.every((f) => f !== '') ? fields : trimmed.split(/\s+/));
  if (problem) fail('record.bad-fen', `${what} "${text}" is not a FEN: ${problem}`);
  return fields.length <= 6 && !/\s\s|\t/.test(trimmed) ? trimmed : trimmed.split(/\s+/).slice(0, 6).join(' ');
}

/**
 * A FEN that `quickFenProblem` accepts with plain fields (single spaces, nothing around,
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

/** Start positions found good before: corpora share a few, each is parsed once. */
const goodFens = new Set<string>();

/** Fields separated by single spaces, with nothing before or after: what `trim` and `split(/\s+/)` would leave as it is. */
function plainFields(text: string): boolean {
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

function fullFenProblem(text: string): string | null {
  if (goodFens.has(text)) return null;
  const parsed = parseDfen(text);
  if (!parsed.ok) return parsed.error.message;
  if (goodFens.size > 4096) goodFens.clear();
  goodFens.add(text);
  return null;
}

const PIECE_LETTERS = 'pnbrqkPNBRQK';
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
  const letter = LETTERS.indexOf(String.fromCharCode(c).toLowerCase());
  const value = letter < 0 || !IS_PIECE[c] ? 0 : c < 97 ? letter + 1 : -(letter + 1);
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
export function quickFenProblem(fields: string[]): string | null {
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

/** 1 / -1 / 0 and their spellings → the canonical result. */
export function parseResult(v: unknown): 'white' | 'black' | 'draw' | null {
  if (v === null || v === undefined || v === '') return null;
  const s = String(v).trim().toLowerCase();
  if (s === '1' || s === 'white' || s === '1-0') return 'white';
  if (s === '-1' || s === 'black' || s === '0-1') return 'black';
  if (s === '0' || s === 'draw' || s === '1/2-1/2' || s === '½-½') return 'draw';
  fail('record.bad-field', `result ${describe(v)} is not 1, -1 or 0`);
}

export function resultNumber(r: 'white' | 'black' | 'draw' | null): number | null {
  return r === 'white' ? 1 : r === 'black' ? -1 : r === 'draw' ? 0 : null;
}

export function parseSide(v: unknown): Side {
  if (v === 'w' || v === 'b') return v;
  const s = String(v ?? '').trim().toLowerCase();
  if (s === 'w' || s === 'white') return 'w';
  if (s === 'b' || s === 'black') return 'b';
  fail('record.bad-field', `side ${describe(v)} is not w or b`);
}
