import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { collect, fixture, records } from '../records/test-support/collect.js';
import type { GameRecord } from '../records/model/game-record.js';
import { readBack } from './round-trip.js';
import { DEFAULT_RATES, makeContext, playGame } from './self-play.js';

/**
 * The bank of a double's events (docs/formats.md): an offer's is the pot the double would
 * make, as the site writes it (the ingest wire's DOUBLE_OFFER payload, a state map's bank that
 * rises when the double is taken); a decline's is the pot standing, unchanged. The generator
 * writes it so and the readers read it so: a record survives the round trip through both
 * formats with the same banks.
 */
const doubles = (r: GameRecord) => r.events.filter((e) => e.type.startsWith('DOUBLE_')).map((e) => [e.type, e.turn, e.actor, e.bank]);

describe('the bank of double events', () => {
  it('the real captured state map: the accepted double offers and takes the risen bank (20 → 40)', async () => {
    const r = records(await collect([fixture('dicechess-com', '1f0c3a80-6d4e-11f0-9a6b-0242ac120002.json')]))[0];
    expect(r.stakes?.initial).toBe(10);
    expect(doubles(r)).toEqual([
      ['DOUBLE_OFFER', 3, 'w', 40],
      ['DOUBLE_ACCEPT', 3, 'b', 40],
    ]);
  });

  it('generated dicechess.com games: offers propose twice the standing pot, accepts take it, declines leave it; the same after a round trip through state maps and the ingest wire', async () => {
    const d = loadDialect('dicechess-com');
    if (!d.ok) throw new Error(d.error[0].message);
    const ctx = makeContext(d.value.name, d.value.rules);
    const rates = { ...DEFAULT_RATES, x2: 1, double: 0.3, resign: 0, timeout: 0, drawAgreement: 0 };
    const played = Array.from({ length: 40 }, (_, index) => playGame(ctx, { index, seed: 'cube-bank', format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
    let offers = 0;
    let declines = 0;
    let throughMaps = 0;
    for (const r of played) {
      const stake = r.stakes?.initial ?? null;
      if (stake === null) continue;
      let pot = 2 * stake;
      for (const e of r.events) {
        if (e.type === 'DOUBLE_OFFER') {
          expect(e.bank, r.id).toBe(pot * 2);
          offers++;
        } else if (e.type === 'DOUBLE_ACCEPT') {
          pot *= 2;
          expect(e.bank, r.id).toBe(pot);
        } else if (e.type === 'DOUBLE_DECLINE') {
          expect(e.bank, r.id).toBe(pot);
          declines++;
        }
      }
      // A tournament game's pot is 0: a state map's bank cannot rise, so it shows no accepted double (the ingest wire still carries the events).
      for (const format of stake > 0 ? (['dicechess-com', 'ingest-wire'] as const) : (['ingest-wire'] as const)) {
        const back = await readBack(format, r);
        if ('problem' in back) throw new Error(`${r.id} ${format}: ${back.problem}`);
        expect(doubles(back.record), `${r.id} through ${format}`).toEqual(doubles(r));
        if (format === 'dicechess-com' && r.events.some((e) => e.type === 'DOUBLE_OFFER')) throughMaps++;
      }
    }
    // The games must hold both kinds (else the round trip proves little).
    expect(offers).toBeGreaterThan(10);
    expect(declines).toBeGreaterThan(2);
    expect(throughMaps).toBeGreaterThan(5);
  });
});
