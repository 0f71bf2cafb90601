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

/** The chance of each piece type on one fair die of these rules (by role, index 0 unused): the faces naming it, of six. */
export function faceOdds(rules: Rules): number[] {
  const out = [0, 0, 0, 0, 0, 0, 0];
  for (const role of rules.dice.faces) out[role] += 1 / 6;
  return out;
}

/** The orderings of a roll that read as the same roll when rolls are compared sorted (a multiset's permutations). */
function orderings(roll: readonly number[]): number {
  let n = 1;
  for (let i = 2; i <= roll.length; i++) n *= i;
  const seen = new Map<number, number>();
  for (const d of roll) seen.set(d, (seen.get(d) ?? 0) + 1);
  for (const c of seen.values()) for (let i = 2; i <= c; i++) n /= i;
  return n;
}

/**
 * The dice model of a value, as the rolls it allows and how its dice draw them: `all` is fair
 * dice (each die independently, a type with the chance of its faces, `odds`), `faces` one die
 * uniform over the types that can move (BrainKing, vchess), `one` the seeds' roll and no other.
 * Returns the chance, under the rival's model, that the roll falls among those `value` allows:
 * what the rolls tell apart is the dice's own chance, not a player's choice. `ordered`: the
 * record keeps roll order (a seeds' roll is compared in order), else rolls compare sorted.
 */
export function rollChance(rival: RollSet, value: RollSet, rivalOdds: readonly number[], ordered: boolean): number {
  if (rival.kind === 'one') return within(rival, value) ? 1 : 0;
  if (rival.kind === 'faces') {
    if (value.kind === 'faces') return rival.faces.filter((f) => value.faces.includes(f)).length / rival.faces.length;
    if (value.kind === 'one') return value.roll.length === 1 && rival.faces.includes(value.roll[0] as Role) ? 1 / rival.faces.length : 0;
    return 1;
  }
  if (value.kind === 'faces') return value.faces.reduce((p, f) => p + rivalOdds[f], 0);
  if (value.kind === 'one') return value.roll.reduce((p, d) => p * rivalOdds[d], ordered ? 1 : orderings(value.roll));
  return 1;
}

/** The weight of one roll as evidence, in millionths of a log10 unit (whole numbers: batches add exactly in any order); 0 for a roll the rival cannot show at all (the game refutes it outright there). */
export const chanceWeight = (chance: number): number => (chance > 0 && chance < 1 ? Math.round(-Math.log10(chance) * 1e6) : 0);

/**
 * One turn's roll, for `dice.draw` and `dice.movableTest`: for every value j the game conforms
 * under and every rival k, adds 1 to out[j][k] when k allows a roll j forbids, and calls
 * `counted(j, k, weight)` with the weight of that roll as evidence against k (chanceWeight of
 * the chance, under k's dice, that the roll falls among those j allows).
 */
export function rollOpportunities(
  sets: readonly RollSet[],
  conforming: readonly boolean[],
  out: number[][],
  counted?: (j: number, k: number, weight: number) => void,
  odds?: readonly (readonly number[])[],
  ordered = true,
): void {
  if (sets.every((s) => s.kind === 'all')) return;
  for (let j = 0; j < sets.length; j++) {
    if (!conforming[j]) continue;
    for (let k = 0; k < sets.length; k++) {
      if (k === j || within(sets[k], sets[j])) continue;
      out[j][k]++;
      counted?.(j, k, odds ? chanceWeight(rollChance(sets[k], sets[j], odds[k], ordered)) : 0);
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
