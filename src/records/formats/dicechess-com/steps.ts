import { ROLE_LETTERS } from '../../../core/index.js';
import { type Obj, describe, isObj } from '../../fields.js';
import type { Side } from '../../model/game-record.js';
import { fail } from '../../items.js';
import { checkFen } from '../../notation/fen.js';
import { plainFenEnd, plainFenFieldsEnd } from '../../notation/fen-shape.js';
import { squareOfCodes } from '../../notation/squares.js';
import { uciOfSquares } from '../../notation/uci.js';

/** One parsed step of a dicechess.com `gameMoveHistoryStateMap`. */
export interface Die {
  face: number;
  /** Upper case (White), lower case (Black), or null for digits. */
  side: Side | null;
  allowed: boolean;
  used: boolean;
}

export interface Step {
  n: number;
  /** The FEN as the step holds it; `fen` is it checked and trimmed. */
  fenText: string;
  fen: string;
  board: string;
  /** FEN field 2. */
  toMove: Side;
  /** Where the scanner wrote this FEN's board (64 squares, a1 first) in its document's board scratch; -1: nowhere (the judge reads the text). */
  boardAt: number;
  dice: Die[];
  /** The dice letters with their case (`diceKeyOf`): a new value means a new roll. */
  diceKey: DiceKey;
  /** UCI, lower case. */
  move: string | null;
  leftTime: Clocks | null;
  bank: number | null;
}

/**
 * A step's `leftTime` without an object per step: its keys in the order JavaScript lists an
 * object's own properties (whole-number keys rising, then the others as written), each with its
 * milliseconds at the same index. A key `__proto__` is not kept (as assigning it never made a property).
 */
export interface Clocks {
  keys: string[];
  ms: number[];
}

const PROMOTIONS: Record<string, string> = { QUEEN: 'q', ROOK: 'r', BISHOP: 'b', KNIGHT: 'n' };
const LETTERS = ROLE_LETTERS.slice(1); // faces 1–6

/** Where a step is, for locations: `<base>#step <n>`. */
export const stepWhere = (base: string, n: number): string => `${base}#step ${n}`;

/** The steps of a state map, ordered by number (keys may have gaps). */
export function parseSteps(map: Obj, base: string, notes: Set<string>): Step[] {
  const keys = Object.keys(map);
  if (keys.length === 0) fail('record.missing-field', 'gameMoveHistoryStateMap has no steps');
  const numbered = keys.map((k) => {
    if (!/^\d+$/.test(k)) fail('record.bad-field', `step key "${k}" is not a step number`, `${base}#step ${k}`);
    return [Number(k), k] as const;
  });
  numbered.sort((a, b) => a[0] - b[0]);
  const steps: Step[] = new Array(numbered.length);
  let prev: Step | null = null;
  for (let i = 0; i < numbered.length; i++) {
    const [n, k] = numbered[i];
    prev = steps[i] = parseStep(map[k], n, stepWhere(base, n), notes, i === 0, prev);
  }
  return steps;
}

function parseStep(v: unknown, n: number, where: string, notes: Set<string>, first: boolean, prev: Step | null): Step {
  if (!isObj(v)) fail('record.bad-field', `step ${n} must be an object, not ${describe(v)}`, where);
  const fen = v.fen;
  // Most steps repeat the FEN before them (a roll, a highlight reset): it is checked once.
  const read = prev !== null && prev.fenText === fen ? prev : readFen(fen, n, where, first);
  const dices = v.dices ?? [];
  if (!Array.isArray(dices)) fail('record.bad-field', `step ${n} dices must be a list`, where);
  const dice: Die[] = new Array(dices.length);
  for (let i = 0; i < dices.length; i++) {
    const d = dices[i];
    if (!isObj(d)) fail('record.bad-dice', `step ${n} dices[${i}] must be an object with value, allowed and used`, where);
    dice[i] = dieOf(d.value, d.allowed, d.used, n, i, where, notes);
  }
  let bank: number | null = null;
  if (v.bank !== undefined && v.bank !== null) bank = bankOf(v.bank, n, where);
  let leftTime: Clocks | null = null;
  const lt = v.leftTime;
  if (isObj(lt)) {
    leftTime = { keys: [], ms: [] };
    for (const k in lt) {
      const ms = clockOf(lt[k], k, n, where);
      if (k === '__proto__') continue;
      leftTime.keys.push(k);
      leftTime.ms.push(ms);
    }
  }
  const m = v.gameMoveHistoryMove;
  let move: string | null = null;
  if (m !== null && m !== undefined) {
    if (!isObj(m)) fail('record.bad-move', `step ${n} move must be an object with from and to`, where);
    move = moveOf(m.from, m.to, m.promotion, n, where, notes);
  }
  return { n, fenText: read.fenText, fen: read.fen, board: read.board, toMove: read.toMove, boardAt: -1, dice, diceKey: diceKeyOf(dice), move, leftTime, bank };
}

/** What a step's FEN gives: checked (a full parse for the first step), its board and side to move. */
export function readFen(fen: unknown, n: number, where: string, first: boolean): StepFen {
  let checked: string;
  try {
    checked = checkFen(fen, first ? 'start' : 'turn', `step ${n} fen`);
  } catch (e) {
    (e as { problem: { location?: string } }).problem.location = where;
    throw e;
  }
  const space = checked.indexOf(' ');
  return { fenText: fen as string, fen: checked, board: checked.slice(0, space), toMove: checked.slice(space + 1, checked.indexOf(' ', space + 1)) as Side, boardAt: -1 };
}

export type StepFen = Pick<Step, 'fenText' | 'fen' | 'board' | 'toMove' | 'boardAt'>;

/**
 * A later step's FEN as `readFen` reads it, where its one-pass check accepts it (undefined
 * otherwise: `readFen` decides and words the problem). With `before`, a FEN that `plainFen`
 * gave, whose board text `fen` repeats up to `boardEnd` (the space after it): only the fields
 * after the board are checked, and the board (its string and squares) is that FEN's. Without
 * it, given `squares`, the board's squares are written to `squares[at, at + 64)` (zeroed here).
 */
export function plainFen(fen: string, before?: StepFen, boardEnd = 0, squares?: Int8Array, at = 0): StepFen | undefined {
  if (before === undefined && squares !== undefined) squares.fill(0, at, at + 64);
  const end = before === undefined ? plainFenEnd(fen, squares, at) : plainFenFieldsEnd(fen, boardEnd);
  if (end < 0) return undefined;
  const space = before === undefined ? fen.indexOf(' ') : boardEnd;
  return {
    fenText: fen,
    fen: end === fen.length ? fen : fen.slice(0, end),
    board: before === undefined ? fen.slice(0, space) : before.board,
    toMove: fen.charCodeAt(space + 1) === 119 ? 'w' : 'b',
    boardAt: before === undefined ? (squares === undefined ? -1 : at) : before.boardAt,
  };
}

/**
 * The dice letters with their case, as one value: a new value means a new roll. Up to seven
 * dice it is a number (their character codes, base 128: none is 0, so no two lists share one),
 * compared at once where strings built die by die would first be flattened; more, a string.
 */
export function diceKeyOf(dice: Die[]): DiceKey {
  if (dice.length <= 7) {
    let key = 0;
    for (const d of dice) key = key * 128 + dieCharCode(d);
    return key;
  }
  return String.fromCharCode(...dice.map(dieCharCode));
}

export type DiceKey = number | string;

const dieCharCode = (d: Die): number => (d.side === 'b' ? LETTERS.charCodeAt(d.face - 1) : d.side === 'w' ? UPPER.charCodeAt(d.face - 1) : 48 + d.face);

export function bankOf(v: unknown, n: number, where: string): number {
  const bank = Number(v);
  if (!Number.isFinite(bank)) fail('record.bad-field', `step ${n} bank ${describe(v)} is not a number`, where);
  return bank;
}

/** An array-index key's number (JavaScript lists such keys first, rising), or -1 for any other key. */
export function indexKey(k: string): number {
  const n = k.length;
  if (n === 0 || n > 10 || (n > 1 && k.charCodeAt(0) === 48)) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = k.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v < 4294967295 ? v : -1;
}

/** Clocks read in the text's order (no key twice) put in property order, in place: index keys first, rising; the others as written. */
export function inPropertyOrder(keys: string[], ms: number[]): Clocks {
  // An insertion sort: a step has two clocks.
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    const v = ms[i];
    const rank = indexKey(k);
    if (rank < 0) continue;
    let j = i - 1;
    for (; j >= 0; j--) {
      const before = indexKey(keys[j]);
      if (before >= 0 && before < rank) break;
      keys[j + 1] = keys[j];
      ms[j + 1] = ms[j];
    }
    keys[j + 1] = k;
    ms[j + 1] = v;
  }
  return { keys, ms };
}

export function clockOf(t: unknown, key: string, n: number, where: string): number {
  const ms = typeof t === 'number' ? t : Number(t);
  if (t === null || !Number.isFinite(ms)) fail('record.bad-field', `step ${n} leftTime of ${key} is ${describe(t)}, not milliseconds`, where);
  return ms;
}

const UPPER = LETTERS.toUpperCase();
/** A die's one character (char code) → its face 1–6: digits, piece letters (upper case White); 0 = not a die. */
const DIE_FACE = new Uint8Array(128);
for (let f = 1; f <= 6; f++) {
  DIE_FACE[48 + f] = f;
  DIE_FACE[LETTERS.charCodeAt(f - 1)] = f;
  DIE_FACE[UPPER.charCodeAt(f - 1)] = f;
}

/**
 * A die from its one ASCII character's code, or undefined where that is no die (the general
 * path words it). Its note is `dieNote(die)` (the scanner notes once a document).
 */
export function dieOfCode(c: number, allowed: boolean, used: boolean): Die | undefined {
  const face = c < 128 ? DIE_FACE[c] : 0;
  if (face === 0) return undefined;
  // Dice are never changed once read: the 72 there can be are made once each.
  const k = 4 * c + (allowed ? 2 : 0) + (used ? 1 : 0);
  return (DICE[k] ??= { face, side: c <= 57 ? null : c < 97 ? 'w' : 'b', allowed, used });
}
const DICE: Array<Die | undefined> = new Array(4 * 128).fill(undefined);

/** What a die's spelling notes: digits or piece letters. */
export const dieNote = (d: Die): string => (d.side === null ? 'dice:digits' : 'dice:letters');

/** One die of a step from its fields. */
export function dieOf(v: unknown, allowed: unknown, used: unknown, n: number, i: number, where: string, notes: Set<string>): Die {
  const what = (): string => `step ${n} dices[${i}]`;
  const value = typeof v === 'string' ? v : String(v ?? '');
  const c = value.length === 1 ? value.charCodeAt(0) : 0;
  let face = c < 128 ? DIE_FACE[c] : 0;
  let side: Side | null = c <= 57 ? null : c < 97 ? 'w' : 'b';
  // Beyond ASCII, a letter whose lower case is a piece letter (the Kelvin sign K) reads as that piece, as it always has.
  if (c >= 128 && LETTERS.includes(value.toLowerCase())) {
    face = LETTERS.indexOf(value.toLowerCase()) + 1;
    side = value === value.toUpperCase() ? 'w' : 'b';
  }
  if (face === 0) fail('record.bad-dice', `${what()} value ${describe(v)} is not a die (a piece letter)`, where);
  notes.add(side === null ? 'dice:digits' : 'dice:letters');
  if (typeof allowed !== 'boolean') fail(allowed === undefined ? 'record.missing-field' : 'record.bad-field', `${what()} needs allowed true or false`, where);
  if (typeof used !== 'boolean') fail(used === undefined ? 'record.missing-field' : 'record.bad-field', `${what()} needs used true or false`, where);
  return { face, side, allowed, used };
}

const SQUARE = /^[a-hA-H][1-8]$/;

/** Is this a square name (a–h or A–H, 1–8)? By character codes: this runs for every move of a state map. */
const isSquare = (s: string): boolean => {
  if (s.length !== 2) return false;
  const file = s.charCodeAt(0) | 0x20;
  const rank = s.charCodeAt(1);
  return file >= 97 && file <= 104 && rank >= 49 && rank <= 56;
};

/**
 * The usual move from its squares' character codes (file, rank; either case), no promotion:
 * what `moveOf` gives, or undefined where that is no move (the general path words it). Its
 * note is `squaresNote` (the scanner notes once a document).
 */
export function usualMove(fromFile: number, fromRank: number, toFile: number, toRank: number): string | undefined {
  // `| 0x20` lands on a–h only from a–h and A–H.
  const from = squareOfCodes(fromFile | 0x20, fromRank);
  const to = squareOfCodes(toFile | 0x20, toRank);
  if (from < 0 || to < 0 || from === to) return undefined;
  return uciOfSquares(from, to);
}

/** What the usual move's spelling notes (`usualMove`'s codes): both squares upper case, or not. */
export const squaresNote = (fromFile: number, toFile: number): string => (fromFile < 97 && toFile < 97 ? 'squares:upper-case' : 'squares:lower-case');

/** A step's move (UCI, lower case) from its fields. */
export function moveOf(f: unknown, t: unknown, promotion: unknown, n: number, where: string, notes: Set<string>): string {
  const from = String(f ?? '');
  const to = String(t ?? '');
  if ((promotion === 'NONE' || promotion === null || promotion === undefined) && isSquare(from) && isSquare(to)) {
    // The usual move, without a regular expression or case conversions; the same answers as below.
    const a = from.toLowerCase();
    const b = to.toLowerCase();
    if (a !== b) {
      const upper = from.charCodeAt(0) < 97 && to.charCodeAt(0) < 97;
      notes.add(upper ? 'squares:upper-case' : 'squares:lower-case');
      return a + b;
    }
  }
  if (!SQUARE.test(from) || !SQUARE.test(to)) fail('record.bad-move', `step ${n} move ${describe(from)} → ${describe(to)} does not name two squares`, where);
  if (from.toLowerCase() === to.toLowerCase()) fail('record.bad-move', `step ${n} move ${from} → ${to} does not move a piece`, where);
  notes.add(`${from}${to}` === `${from}${to}`.toUpperCase() ? 'squares:upper-case' : 'squares:lower-case');
  const promo = promotion === undefined || promotion === null ? 'NONE' : String(promotion).toUpperCase();
  let suffix = '';
  if (promo !== 'NONE' && promo !== '') {
    const piece = promo.replace(/^(WHITE|BLACK)_/, '');
    suffix = PROMOTIONS[piece] ?? fail('record.bad-move', `step ${n} promotion ${describe(promotion)} is not NONE or COLOUR_PIECE`, where);
  }
  return `${from}${to}`.toLowerCase() + suffix;
}
