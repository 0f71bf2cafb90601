import { ROLE_LETTERS } from '../../../core/index.js';
import { describe } from '../../fields.js';
import type { Side } from '../../model/game-record.js';
import { fail } from '../../items.js';

/**
 * One entry of a beturanga server document's `history`: a FEN-like string per state,
 * `board side castling en-passant dice timestamp`. The dice field is `-` before the roll,
 * then the dice still to play as piece letters (upper case White, lower case Black).
 */
export interface Entry {
  board: string;
  side: Side;
  castling: string;
  ep: string;
  /** Faces still to play, in the entry's order; null for `-` (not rolled). */
  dice: number[] | null;
  /** The dice letters as written (`-` before the roll). */
  diceText: string;
  /** Epoch milliseconds; null where the entry has none (`settings.fen`). */
  ts: number | null;
}

const LETTERS = ROLE_LETTERS.slice(1); // faces 1–6

/**
 * An entry, with the real document's quirks read and noted: a side run into the castling
 * field (`…R1BQKBNR bKQ - -`), a side written `-` (the start in `settings.fen`: White moves).
 */
export function parseEntry(text: unknown, what: string, notes: Set<string>, withTime = true): Entry {
  if (typeof text !== 'string' || text.trim() === '') fail('record.bad-fen', `${what} must be a FEN-like text, not ${describe(text)}`);
  let f = text.trim().split(/\s+/);
  const joined = /^([wb])(-|[KQkqA-Ha-h]+)$/.exec(f[1] ?? '');
  if (joined) {
    f = [f[0], joined[1], joined[2], ...f.slice(2)];
    notes.add('beturanga:side-castling-joined');
  }
  const want = withTime ? 6 : 5;
  if (f.length !== want && !(withTime && f.length === 5 && /^\d+$/.test(f[4]))) {
    fail('record.bad-fen', `${what} "${text}" has ${f.length} fields; a history entry has ${want}: board, side, castling, en passant, dice${withTime ? ', time' : ''}`);
  }
  const [board, sideText, castling, ep] = f;
  let side: Side;
  if (sideText === 'w' || sideText === 'b') side = sideText;
  else if (sideText === '-') {
    side = 'w';
    notes.add('beturanga:side-dash');
  } else fail('record.bad-fen', `${what} "${text}": side "${sideText}" is not w, b or -`);
  const diceText = f.length === 6 || !withTime ? f[4] : '-';
  const tsText = withTime ? f[f.length - 1] : null;
  let ts: number | null = null;
  if (tsText !== null) {
    ts = Number(tsText);
    if (!/^\d+$/.test(tsText) || !Number.isSafeInteger(ts)) fail('record.bad-field', `${what} "${text}": time "${tsText}" is not epoch milliseconds`);
  }
  return { board, side, castling, ep, dice: diceOf(diceText, what, text), diceText, ts };
}

function diceOf(t: string, what: string, text: string): number[] | null {
  if (t === '-') return null;
  const out: number[] = [];
  for (const c of t) {
    const face = LETTERS.indexOf(c.toLowerCase()) + 1;
    if (face === 0) fail('record.bad-dice', `${what} "${text}": "${c}" is not a die letter (P N B R Q K)`);
    out.push(face);
  }
  return out;
}

/** The dice as the entry writes them: letters cased by side, `-` for none. */
export const entryDiceLetters = (faces: readonly number[] | null, side: Side): string => {
  if (faces === null || faces.length === 0) return '-';
  const s = faces.map((f) => LETTERS[f - 1]).join('');
  return side === 'w' ? s.toUpperCase() : s;
};

/** The FEN of an entry's position (four fields: the counters are not written). */
export const entryFen = (e: Entry): string => `${e.board} ${e.side} ${e.castling} ${e.ep}`;
