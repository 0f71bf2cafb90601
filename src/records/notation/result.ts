import { describe } from '../fields.js';
import type { Side } from '../model/game-record.js';
import { fail } from '../problems.js';

/** A game's result and a side to move, as the sources spell them. */

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
