/** Dice in the DFEN's 7th field, and die faces drawn as small SVGs for the buttons. */
import { PIPS } from './board-svg.js';

export const FACE_LETTERS = ['p', 'n', 'b', 'r', 'q', 'k'] as const;


/** The 7th field of a DFEN ('' when there is none or it is "-"). */
export function diceField(dfen: string): string {
  const f = dfen.trim().split(/\s+/)[6];
  return f === undefined || f === '-' ? '' : f;
}

/** The DFEN with its 7th field replaced (fields 5 and 6 filled in when missing). */
export function withDice(dfen: string, dice: string): string {
  const fields = dfen.trim().split(/\s+/);
  while (fields.length < 6) fields.push(fields.length === 4 ? '0' : fields.length === 5 ? '1' : '-');
  fields.length = 6;
  if (dice !== '') fields.push(dice);
  return fields.join(' ');
}

export function dieSvg(letter: string, size: number): string {
  const face = FACE_LETTERS.indexOf(letter.toLowerCase() as (typeof FACE_LETTERS)[number]) + 1;
  const white = letter === letter.toUpperCase();
  const pips = (PIPS[face] ?? []).map(([x, y]) => `<circle cx="${x * 24 + 3}" cy="${y * 24 + 3}" r="2.4" fill="${white ? '#222' : '#fff'}"/>`).join('');
  return `<svg viewBox="0 0 30 30" width="${size}" height="${size}" aria-label="${letter}"><rect x="3" y="3" width="24" height="24" rx="4" fill="${white ? '#fff' : '#333'}" stroke="#222" stroke-width="1.5"/>${pips}</svg><span class="die-letter">${letter}</span>`;
}
