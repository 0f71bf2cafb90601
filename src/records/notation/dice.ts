import { ROLE_LETTERS } from '../../core/index.js';
import { describe } from '../fields.js';
import type { Side } from '../model/game-record.js';
import { fail } from '../problems.js';

/**
 * Dice as the sources write them. The letters are the core's (`ROLE_LETTERS`: face 1 pawn …
 * 6 king); writers use the core's `makeDiceLetters`. Every normalisation adds a note, so a
 * record says which encodings its source used.
 */

export type DiceOrder = 'roll' | 'sorted' | 'unknown';
export interface ParsedDice {
  dice: number[];
  order: DiceOrder;
}

/** The face of a die letter (any case), or -1. */
const faceOfLetter = (t: string): number => (t.length === 1 && t !== ' ' ? ROLE_LETTERS.indexOf(t.toLowerCase()) : -1);

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
    } else if (typeof t === 'string' && faceOfLetter(t) > 0) {
      face = faceOfLetter(t);
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
