import { type Obj, describe, isObj } from '../../fields.js';
import type { Side } from '../../game-record.js';
import { fail } from '../../items.js';
import { checkFen } from '../../notation.js';

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
  where: string;
  /** The FEN as the step holds it; `fen` is it checked and trimmed. */
  fenText: string;
  fen: string;
  board: string;
  /** FEN field 2. */
  toMove: Side;
  dice: Die[];
  /** The dice letters with their case: a new value means a new roll. */
  diceKey: string;
  /** UCI, lower case. */
  move: string | null;
  leftTime: Record<string, number> | null;
  bank: number | null;
}

const PROMOTIONS: Record<string, string> = { QUEEN: 'q', ROOK: 'r', BISHOP: 'b', KNIGHT: 'n' };
const LETTERS = 'pnbrqk';

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
    prev = steps[i] = parseStep(map[k], n, `${base}#step ${n}`, notes, i === 0, prev);
  }
  return steps;
}

function parseStep(v: unknown, n: number, where: string, notes: Set<string>, first: boolean, prev: Step | null): Step {
  if (!isObj(v)) fail('record.bad-field', `step ${n} must be an object, not ${describe(v)}`, where);
  const fen = v.fen;
  // Most steps repeat the FEN before them (a roll, a highlight reset): it is checked once.
  let read: Pick<Step, 'fenText' | 'fen' | 'board' | 'toMove'>;
  if (prev !== null && prev.fenText === fen) read = prev;
  else {
    let checked: string;
    try {
      checked = checkFen(fen, `step ${n} fen`, first);
    } catch (e) {
      (e as { problem: { location?: string } }).problem.location = where;
      throw e;
    }
    const space = checked.indexOf(' ');
    read = { fenText: fen as string, fen: checked, board: checked.slice(0, space), toMove: checked.slice(space + 1, checked.indexOf(' ', space + 1)) as Side };
  }
  const dices = v.dices ?? [];
  if (!Array.isArray(dices)) fail('record.bad-field', `step ${n} dices must be a list`, where);
  const dice: Die[] = new Array(dices.length);
  let diceKey = '';
  for (let i = 0; i < dices.length; i++) {
    const d = parseDie(dices[i], n, i, where, notes);
    dice[i] = d;
    diceKey += d.side === 'b' ? LETTERS[d.face - 1] : d.side === 'w' ? UPPER[d.face - 1] : String(d.face);
  }
  let bank: number | null = null;
  if (v.bank !== undefined && v.bank !== null) {
    bank = Number(v.bank);
    if (!Number.isFinite(bank)) fail('record.bad-field', `step ${n} bank ${describe(v.bank)} is not a number`, where);
  }
  let leftTime: Record<string, number> | null = null;
  const lt = v.leftTime;
  if (isObj(lt)) {
    leftTime = {};
    for (const k in lt) {
      const t = lt[k];
      const ms = typeof t === 'number' ? t : Number(t);
      if (t === null || !Number.isFinite(ms)) fail('record.bad-field', `step ${n} leftTime of ${k} is ${describe(t)}, not milliseconds`, where);
      leftTime[k] = ms;
    }
  }
  return {
    n,
    where,
    fenText: read.fenText,
    fen: read.fen,
    board: read.board,
    toMove: read.toMove,
    dice,
    diceKey,
    move: parseMove(v.gameMoveHistoryMove, n, where, notes),
    leftTime,
    bank,
  };
}

const UPPER = LETTERS.toUpperCase();

function parseDie(d: unknown, n: number, i: number, where: string, notes: Set<string>): Die {
  const what = (): string => `step ${n} dices[${i}]`;
  if (!isObj(d)) fail('record.bad-dice', `${what()} must be an object with value, allowed and used`, where);
  const value = typeof d.value === 'string' ? d.value : String(d.value ?? '');
  let face: number;
  let side: Side | null;
  const c = value.length === 1 ? value.charCodeAt(0) : 0;
  if (c >= 49 && c <= 54) {
    face = c - 48;
    side = null;
    notes.add('dice:digits');
  } else if (c !== 0 && LETTERS.includes(value.toLowerCase())) {
    face = LETTERS.indexOf(value.toLowerCase()) + 1;
    side = value === value.toUpperCase() ? 'w' : 'b';
    notes.add('dice:letters');
  } else {
    fail('record.bad-dice', `${what()} value ${describe(d.value)} is not a die (a piece letter)`, where);
  }
  if (typeof d.allowed !== 'boolean') fail(d.allowed === undefined ? 'record.missing-field' : 'record.bad-field', `${what()} needs allowed true or false`, where);
  if (typeof d.used !== 'boolean') fail(d.used === undefined ? 'record.missing-field' : 'record.bad-field', `${what()} needs used true or false`, where);
  return { face, side, allowed: d.allowed, used: d.used };
}

const SQUARE = /^[a-hA-H][1-8]$/;

function parseMove(m: unknown, n: number, where: string, notes: Set<string>): string | null {
  if (m === null || m === undefined) return null;
  if (!isObj(m)) fail('record.bad-move', `step ${n} move must be an object with from and to`, where);
  const from = String(m.from ?? '');
  const to = String(m.to ?? '');
  if (!SQUARE.test(from) || !SQUARE.test(to)) fail('record.bad-move', `step ${n} move ${describe(from)} → ${describe(to)} does not name two squares`, where);
  if (from.toLowerCase() === to.toLowerCase()) fail('record.bad-move', `step ${n} move ${from} → ${to} does not move a piece`, where);
  notes.add(`${from}${to}` === `${from}${to}`.toUpperCase() ? 'squares:upper-case' : 'squares:lower-case');
  const promo = m.promotion === undefined || m.promotion === null ? 'NONE' : String(m.promotion).toUpperCase();
  let suffix = '';
  if (promo !== 'NONE' && promo !== '') {
    const piece = promo.replace(/^(WHITE|BLACK)_/, '');
    suffix = PROMOTIONS[piece] ?? fail('record.bad-move', `step ${n} promotion ${describe(m.promotion)} is not NONE or COLOUR_PIECE`, where);
  }
  return `${from}${to}`.toLowerCase() + suffix;
}
