import { squareName } from '../../core/index.js';
import { describe } from '../fields.js';
import { fail } from '../problems.js';

/** UCI micro-moves as the sources write them, normalised to the lower case of a record. */

const UCI = /^([a-hA-H][1-8])([a-hA-H][1-8])=?([nbrqkNBRQK]?)$/;

/** Fast syntax check for canonical moves (native records). */
export const CANONICAL_UCI = /^[a-h][1-8][a-h][1-8][nbrqk]?$/;

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
  return p === 110 || p === 98 || p === 114 || p === 113 || p === 107;
}

/** UCI of a move between two squares (0–63 each, a1 = 0), lower case: each string made once and shared. */
export function uciOfSquares(from: number, to: number): string {
  return (UCI_OF_SQUARES[from * 64 + to] ??= squareName(from) + squareName(to));
}
const UCI_OF_SQUARES: string[] = [];
