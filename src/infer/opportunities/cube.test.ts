import { describe, expect, it } from 'vitest';
import { loadDialect } from '../../dialects/index.js';
import type { GameEvent } from '../../records/model/game-record.js';
import { cubeAllowed, cubeOpportunities, CubeTrack, mayOffer } from './cube.js';

const rulesOf = (sets: string[] = []) => {
  const d = loadDialect('dicechess-com', sets);
  if (!d.ok) throw new Error(d.error[0].message);
  return d.value.rules;
};

const ev = (type: GameEvent['type'], turn: number, actor: GameEvent['actor'], microMove: number | null = null): GameEvent => ({ type, turn, microMove, actor, bank: null, clockMs: null });

// docs/rules.md §4, the dicechess-com defaults: the cube starts centred at 1, only the last taker redoubles, cap 64.
describe('the cube before each roll (docs/rules.md §4)', () => {
  it('starts centred at 1; an accepted double doubles it and gives it to the taker', () => {
    const track = new CubeTrack([ev('DOUBLE_OFFER', 3, 'w'), ev('DOUBLE_ACCEPT', 3, 'b'), ev('DOUBLE_OFFER', 6, 'b'), ev('DOUBLE_ACCEPT', 6, 'w')]);
    expect({ ...track.before(1) }).toEqual({ value: 1, owner: null });
    // The offer of turn 3 comes before its roll: the cube has changed hands by then.
    expect({ ...track.before(3) }).toEqual({ value: 2, owner: 'b' });
    expect({ ...track.before(5) }).toEqual({ value: 2, owner: 'b' });
    expect({ ...track.before(6) }).toEqual({ value: 4, owner: 'w' });
  });

  it('an accept without its actor gives the cube to the side the offer was made to, as the event judge does', () => {
    const track = new CubeTrack([ev('DOUBLE_OFFER', 2, 'b'), ev('DOUBLE_ACCEPT', 2, null)]);
    expect({ ...track.before(2) }).toEqual({ value: 2, owner: 'w' });
  });

  it('an event during a turn counts from the next roll on', () => {
    const track = new CubeTrack([ev('DOUBLE_OFFER', 4, 'w', 1), ev('DOUBLE_ACCEPT', 4, 'b', 1)]);
    expect(track.before(4).value).toBe(1);
    expect(track.before(5).value).toBe(2);
  });

  it('the last taker alone may redouble under centered-last-taker, anyone under either; no double past the cap', () => {
    const base = rulesOf();
    const either = rulesOf(['cube.ownership=either']);
    const uncapped = rulesOf(['cube.cap=null']);
    expect(mayOffer(base, { value: 1, owner: null }, 'w')).toBe(true);
    expect(mayOffer(base, { value: 2, owner: 'b' }, 'w')).toBe(false);
    expect(mayOffer(either, { value: 2, owner: 'b' }, 'w')).toBe(true);
    expect(mayOffer(base, { value: 32, owner: 'w' }, 'w')).toBe(true);
    expect(mayOffer(base, { value: 64, owner: 'w' }, 'w')).toBe(false);
    expect(mayOffer(uncapped, { value: 64, owner: 'w' }, 'w')).toBe(true);
  });

  it('counts a pair once per turn start, only for values the game conforms under, and says why the value refuses', () => {
    const rules = [rulesOf(), rulesOf(['cube.ownership=either'])];
    const out = [
      [0, 0],
      [0, 0],
    ];
    const seen: string[] = [];
    cubeOpportunities(rules, { value: 2, owner: 'b' }, 'w', [true, true], out, (j, k) => seen.push(`${j}>${k}`));
    // Either allows white's redouble, which the last-taker rule refuses; never the other way.
    expect(out).toEqual([
      [0, 1],
      [0, 0],
    ]);
    expect(seen).toEqual(['0>1']);
    // The owner to move: both allow the double, nothing to count.
    cubeOpportunities(rules, { value: 2, owner: 'b' }, 'b', [true, true], out);
    // A game that does not conform under the value gives it no opportunity.
    cubeOpportunities(rules, { value: 2, owner: 'b' }, 'w', [false, true], out);
    expect(out[0][1]).toBe(1);
    expect(cubeAllowed(rules[0], { value: 2, owner: 'b' }, 'w')).toBe('a double to 4 offered by white, who does not own the cube (black took the last double)');
    expect(cubeAllowed(rulesOf(), { value: 64, owner: 'w' }, 'w')).toBe('a double to 128 offered by white, past the cube cap of 64');
  });
});
