import { ROLE_LETTERS, type Role } from '../../core/index.js';
import type { Rules } from '../../rules/index.js';

/**
 * The rolls a value of `dice.draw` lets a turn show (docs/rules.md §2.10, §7): every roll
 * (`all`: fair dice, or provably-fair dice without a reveal to hold them to), only the piece
 * types that can move (`faces`: BrainKing's one die, when some type cannot move and some
 * can), or the one roll the revealed seeds give (`one`: provably-fair dice with a reveal
 * that verifies, so the recorded roll is that one).
 */
export type RollSet = { kind: 'all' } | { kind: 'faces'; faces: readonly Role[] } | { kind: 'one'; roll: readonly number[] };

const ALL: RollSet = { kind: 'all' };

/** What `rules` lets this turn roll, given the faces that can move now (one die) and whether the record's reveal verifies. */
export function allowedRolls(rules: Rules, movable: readonly Role[] | null, revealed: boolean, dice: readonly number[]): RollSet {
  const draw = rules.dice.draw;
  if (draw === 'provably-fair') return revealed && dice.length > 0 ? { kind: 'one', roll: dice } : ALL;
  if (draw === 'movable-types' && movable !== null && movable.length > 0 && movable.length < 6) return { kind: 'faces', faces: movable };
  return ALL;
}

/** Does `b` allow every roll `a` allows? */
function within(a: RollSet, b: RollSet): boolean {
  if (b.kind === 'all') return true;
  // Every value rolls at least one die here, so `all` holds more than one roll and more than any set of faces short of six.
  if (a.kind === 'all') return false;
  if (a.kind === 'faces') return b.kind === 'faces' ? a.faces.every((f) => b.faces.includes(f)) : a.faces.length === 1 && b.roll.length === 1 && b.roll[0] === a.faces[0];
  if (b.kind === 'faces') return a.roll.length === 1 && b.faces.includes(a.roll[0] as Role);
  return a.roll.length === b.roll.length && a.roll.every((d, i) => d === b.roll[i]);
}

/**
 * One turn's roll, for `dice.draw`: for every value j the game conforms under and every
 * rival k, adds 1 to out[j][k] when k allows a roll j forbids (and calls `counted(j, k)`).
 */
export function rollOpportunities(sets: readonly RollSet[], conforming: readonly boolean[], out: number[][], counted?: (j: number, k: number) => void): void {
  if (sets.every((s) => s.kind === 'all')) return;
  for (let j = 0; j < sets.length; j++) {
    if (!conforming[j]) continue;
    for (let k = 0; k < sets.length; k++) {
      if (k === j || within(sets[k], sets[j])) continue;
      out[j][k]++;
      counted?.(j, k);
    }
  }
}

const letters = (faces: readonly number[]): string => faces.map((f) => ROLE_LETTERS[f].toUpperCase()).join('');

/** What the rival also allowed at such a roll, in words. */
export function rollAllowed(rival: RollSet, value: RollSet): string {
  if (value.kind === 'one') {
    const seeded = `${letters(value.roll)}, the roll the revealed seeds give`;
    return rival.kind === 'faces' ? `a roll of ${letters(rival.faces.filter((f) => f !== value.roll[0]))}, not ${seeded}` : `any other roll than ${seeded}`;
  }
  if (value.kind === 'faces') {
    const other = ([1, 2, 3, 4, 5, 6] as Role[]).filter((f) => !value.faces.includes(f) && (rival.kind !== 'faces' || rival.faces.includes(f)));
    return `a roll of ${letters(other)}, a piece type that cannot move (only ${letters(value.faces)} can)`;
  }
  return rival.kind === 'faces' ? `a roll of ${letters(rival.faces)}` : 'another roll';
}
