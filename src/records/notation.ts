import { parseDfen } from '../core/index.js';
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

/** Fast syntax check for canonical moves (native records). */
export const CANONICAL_UCI = /^[a-h][1-8][a-h][1-8][nbrq]?$/;

/**
 * Checks a FEN (4–7 fields) and returns it trimmed; a 7th dice field is dropped.
 * `full` runs the core parser (start positions: castling rights must match rooks);
 * otherwise a fast check of the same shape without building a position (per-turn
 * FENs, where a full parse per turn would cost more than the rest of the reading).
 */
export function checkFen(text: unknown, what: string, full = true): string {
  if (typeof text !== 'string' || text.trim() === '') fail('record.missing-field', `${what} is missing`);
  const trimmed = text.trim();
  const fields = trimmed.split(' ');
  const problem = full ? fullFenProblem(text) : quickFenProblem(fields.length >= 4 && fields.every((f) => f !== '') ? fields : trimmed.split(/\s+/));
  if (problem) fail('record.bad-fen', `${what} "${text}" is not a FEN: ${problem}`);
  return fields.length <= 6 && !/\s\s|\t/.test(trimmed) ? trimmed : trimmed.split(/\s+/).slice(0, 6).join(' ');
}

/** Start positions found good before: corpora share a few, each is parsed once. */
const goodFens = new Set<string>();

function fullFenProblem(text: string): string | null {
  if (goodFens.has(text)) return null;
  const parsed = parseDfen(text);
  if (!parsed.ok) return parsed.error.message;
  if (goodFens.size > 4096) goodFens.clear();
  goodFens.add(text);
  return null;
}

const PIECE_LETTERS = 'pnbrqkPNBRQK';
const CASTLING = /^(-|[KQkqA-Ha-h]{1,8})$/;
const EN_PASSANT = /^(-|([a-h][36])+)$/;
const DICE = /^(-|[pnbrqkPNBRQK]{1,6})$/;

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
    const ch = board[i];
    if (!PIECE_LETTERS.includes(ch)) return `"${ch}" on rank ${8 - rank} is not a piece letter`;
    squares++;
    // A pawn that captured the king on its last rank stays there (the game is over).
    if (ch === 'P' && rank === 0) strandedWhite = true;
    else if (ch === 'p' && rank === 7) strandedBlack = true;
    else if ((ch === 'p' || ch === 'P') && (rank === 0 || rank === 7)) wrongRankPawn ??= `a pawn stands on rank ${8 - rank}`;
    if (ch === 'K') whiteKings++;
    if (ch === 'k') blackKings++;
  }
  if (rank !== 8) return `board must have 8 ranks, found ${board.split('/').length}`;
  if (whiteKings > 1 || blackKings > 1) return 'more than one king of a colour';
  if (wrongRankPawn) return wrongRankPawn;
  if (strandedWhite && blackKings > 0) return 'a pawn stands on rank 8';
  if (strandedBlack && whiteKings > 0) return 'a pawn stands on rank 1';
  if (fields[1] !== 'w' && fields[1] !== 'b') return `side to move must be "w" or "b", not "${fields[1]}"`;
  if (!CASTLING.test(fields[2])) return `"${fields[2]}" is not a castling field`;
  if (!EN_PASSANT.test(fields[3])) return `"${fields[3]}" is not an en passant field`;
  if (fields.length > 4 && !/^\d+$/.test(fields[4])) return `half-move counter must be a whole number, not "${fields[4]}"`;
  if (fields.length > 5 && (!/^\d+$/.test(fields[5]) || fields[5] === '0')) return `move number must be a whole number from 1, not "${fields[5]}"`;
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
  const s = String(v ?? '').trim().toLowerCase();
  if (s === 'w' || s === 'white') return 'w';
  if (s === 'b' || s === 'black') return 'b';
  fail('record.bad-field', `side ${describe(v)} is not w or b`);
}
