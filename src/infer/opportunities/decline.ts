import type { GameRecord } from '../../records/model/game-record.js';
import { declineCosts } from '../../replay/judge-events.js';
import type { Rules } from '../../rules/index.js';

/**
 * A game ended by a declined double, for `cube.declineLoses` (docs/rules.md §4): the places
 * where its record states what the decline cost, and where a rival value would have had the
 * record state a cost the value forbids. The settled amount (the history list's moneyDelta)
 * may be either value's cost; the ingest wire's final stake may be the post-offer stake,
 * which only `post-offer-stake` allows (the pre-offer stake is the cube's stake under both).
 * A state map's bank, and so its final stake, is the pre-offer stake by construction: no
 * place. For every value j the game conforms under and every rival k that allows there a
 * cost j forbids, adds 1 to out[j][k] (once per game) and calls `counted(j, k)`.
 */
export function declineOpportunities(record: GameRecord, rules: readonly Rules[], conforming: readonly boolean[], out: number[][], counted?: (j: number, k: number) => void): void {
  const d = declineCosts(record);
  if (!d) return;
  const settledPlace = (record.stakes?.settled ?? null) !== null;
  const finalPlace = record.format === 'ingest-wire' && (record.stakes?.final ?? null) !== null;
  if (!settledPlace && !finalPlace) return;
  const value = rules.map((r) => r.cube.declineLoses);
  for (let j = 0; j < rules.length; j++) {
    if (!conforming[j]) continue;
    for (let k = 0; k < rules.length; k++) {
      if (k === j || value[k] === value[j]) continue;
      if (settledPlace || (finalPlace && value[k] === 'post-offer-stake')) {
        out[j][k]++;
        counted?.(j, k);
      }
    }
  }
}

/** What the rival also allowed, in words. */
export function declineAllowed(record: GameRecord, rival: Rules): string {
  const d = declineCosts(record)!;
  const cost = d.costs[rival.cube.declineLoses];
  const who = d.decliner === 'w' ? 'white' : 'black';
  return record.stakes?.settled ? `the record stating that ${who}'s decline cost ${cost} (the ${rival.cube.declineLoses === 'pre-offer-stake' ? 'pre' : 'post'}-offer stake)` : `a final stake of ${cost}, the post-offer stake ${who}'s decline would have cost`;
}
