import type { GameEvent, Side } from '../../records/model/game-record.js';
import type { Rules } from '../../rules/index.js';

/** The doubling cube as the event judge sees it before a turn's roll: its value and who owns it (null: centred). */
export interface CubeState {
  value: number;
  owner: Side | null;
}

/**
 * Follows the record's events turn by turn, as `judgeEvents` reads them: an accepted double
 * doubles the cube and gives it to the taker (the accepter, or the side the offer was made
 * to when the accepter is not recorded).
 */
export class CubeTrack {
  private next = 0;
  private pendingFrom: Side | null = null;
  readonly state: CubeState = { value: 1, owner: null };

  constructor(private readonly events: readonly GameEvent[]) {}

  /** The cube just before the roll of turn `n` (1-based): after every event before that turn and that turn's pre-roll ones. */
  before(n: number): CubeState {
    while (this.next < this.events.length) {
      const e = this.events[this.next];
      if (!(e.turn < n || (e.turn === n && e.microMove === null))) break;
      this.next++;
      if (e.type === 'DOUBLE_OFFER') this.pendingFrom = e.actor;
      else if (e.type === 'DOUBLE_ACCEPT') {
        this.state.value *= 2;
        this.state.owner = e.actor ?? (this.pendingFrom === 'w' ? 'b' : this.pendingFrom === 'b' ? 'w' : null);
        this.pendingFrom = null;
      }
    }
    return this.state;
  }
}

/** Would the event judge accept a double offered by `side` before its roll, under these rules (docs/rules.md §4: ownership and cap)? */
export function mayOffer(rules: Rules, cube: CubeState, side: Side): boolean {
  const c = rules.cube;
  if (!c.enabled) return false;
  if (c.ownership === 'centered-last-taker' && cube.owner !== null && cube.owner !== side) return false;
  return c.cap === null || cube.value * 2 <= c.cap;
}

/**
 * One turn start, before its roll, for a cube option (`cube.ownership`, `cube.cap`): for
 * every value j the game conforms under and every rival k, adds 1 to out[j][k] when k would
 * accept a double offered there by the side to move and j would refuse it (and calls
 * `counted(j, k)`).
 */
export function cubeOpportunities(rules: readonly Rules[], cube: CubeState, side: Side, conforming: readonly boolean[], out: number[][], counted?: (j: number, k: number) => void): void {
  // Most turn starts: every value allows the double (a centred cube below its cap), or every value refuses it.
  let allowing = 0;
  for (const r of rules) if (mayOffer(r, cube, side)) allowing++;
  if (allowing === 0 || allowing === rules.length) return;
  for (let j = 0; j < rules.length; j++) {
    if (!conforming[j] || mayOffer(rules[j], cube, side)) continue;
    for (let k = 0; k < rules.length; k++) {
      if (k === j || !mayOffer(rules[k], cube, side)) continue;
      out[j][k]++;
      counted?.(j, k);
    }
  }
}

/** What the rival also allowed at such a turn start, in words. */
export function cubeAllowed(rules: Rules, cube: CubeState, side: Side): string {
  const who = side === 'w' ? 'white' : 'black';
  const c = rules.cube;
  if (c.ownership === 'centered-last-taker' && cube.owner !== null && cube.owner !== side) {
    return `a double to ${cube.value * 2} offered by ${who}, who does not own the cube (${cube.owner === 'w' ? 'white' : 'black'} took the last double)`;
  }
  return `a double to ${cube.value * 2} offered by ${who}, past the cube cap of ${c.cap}`;
}
