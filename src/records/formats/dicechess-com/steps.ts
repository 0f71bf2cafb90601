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
  return numbered.map(([n, k], i) => parseStep(map[k], n, `${base}#step ${n}`, notes, i === 0));
}

function parseStep(v: unknown, n: number, where: string, notes: Set<string>, first: boolean): Step {
  if (!isObj(v)) fail('record.bad-field', `step ${n} must be an object, not ${describe(v)}`, where);
  const fen = v.fen;
  let checked: string;
  try {
    checked = checkFen(fen, `step ${n} fen`, first);
  } catch (e) {
    (e as { problem: { location?: string } }).problem.location = where;
    throw e;
  }
  const fields = checked.split(' ');
  const dices = v.dices ?? [];
  if (!Array.isArray(dices)) fail('record.bad-field', `step ${n} dices must be a list`, where);
  const dice = dices.map((d, i) => parseDie(d, `step ${n} dices[${i}]`, where, notes));
  let bank: number | null = null;
  if (v.bank !== undefined && v.bank !== null) {
    bank = Number(v.bank);
    if (!Number.isFinite(bank)) fail('record.bad-field', `step ${n} bank ${describe(v.bank)} is not a number`, where);
  }
  let leftTime: Record<string, number> | null = null;
  if (isObj(v.leftTime)) {
    leftTime = {};
    for (const [k, t] of Object.entries(v.leftTime)) {
      const ms = Number(t);
      if (t === null || !Number.isFinite(ms)) fail('record.bad-field', `step ${n} leftTime of ${k} is ${describe(t)}, not milliseconds`, where);
      leftTime[k] = ms;
    }
  }
  return {
    n,
    where,
    fen: checked,
    board: fields[0],
    toMove: fields[1] as Side,
    dice,
    diceKey: dice.map((d) => (d.side === 'b' ? LETTERS[d.face - 1] : d.side === 'w' ? LETTERS[d.face - 1].toUpperCase() : String(d.face))).join(''),
    move: parseMove(v.gameMoveHistoryMove, n, where, notes),
    leftTime,
    bank,
  };
}

function parseDie(d: unknown, what: string, where: string, notes: Set<string>): Die {
  if (!isObj(d)) fail('record.bad-dice', `${what} must be an object with value, allowed and used`, where);
  const value = String(d.value ?? '');
  let face: number;
  let side: Side | null;
  if (/^[1-6]$/.test(value)) {
    face = Number(value);
    side = null;
    notes.add('dice:digits');
  } else if (value.length === 1 && LETTERS.includes(value.toLowerCase())) {
    face = LETTERS.indexOf(value.toLowerCase()) + 1;
    side = value === value.toUpperCase() ? 'w' : 'b';
    notes.add('dice:letters');
  } else {
    fail('record.bad-dice', `${what} value ${describe(d.value)} is not a die (a piece letter)`, where);
  }
  if (typeof d.allowed !== 'boolean') fail(d.allowed === undefined ? 'record.missing-field' : 'record.bad-field', `${what} needs allowed true or false`, where);
  if (typeof d.used !== 'boolean') fail(d.used === undefined ? 'record.missing-field' : 'record.bad-field', `${what} needs used true or false`, where);
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
