import type { PreparedDialect } from '../../replay/replay-game.js';
import { firstFindingAfterRoundTrip } from '../round-trip.js';
import type { GameUnit, InjectSpec, Plant, PlantContext } from './planter.js';
import { shuffled } from './planter-tools.js';
import { PLANTERS } from './planters.js';

const MAX_CANDIDATES = 8;

/**
 * Plants `spec` in a unit: tries candidates until one round-trips through the format
 * and replays with exactly the expected first finding. Null when none does.
 */
export async function plant(unit: GameUnit, spec: InjectSpec, pc: PlantContext, judge: PreparedDialect): Promise<Plant | null> {
  const def = PLANTERS[spec.rule];
  const variants = spec.variant ? [spec.variant] : shuffled(def.variants.length, pc.prng).map((i) => def.variants[i]);
  for (const variant of variants) {
    let tried = 0;
    for (const cand of def.candidates(unit, pc, variant)) {
      if (++tried > MAX_CANDIDATES) break;
      const got = await firstFindingAfterRoundTrip(pc.format, cand.record, judge);
      if (!('finding' in got) || got.finding === null) continue;
      const f = got.finding;
      if (f.rule === cand.expected.rule && f.turn === cand.expected.turn && f.microMove === cand.expected.microMove) return cand;
    }
  }
  return null;
}
