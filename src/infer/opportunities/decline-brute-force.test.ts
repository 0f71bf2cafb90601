import { describe, expect, it } from 'vitest';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { declineCosts } from '../../replay/judge-events.js';
import { prepareDialect, replayGame } from '../../replay/replay-game.js';
import { walkGame } from './game-walk.js';
import { opportunityKind } from './turn-tests.js';

const dialectOf = (sets: string[]) => {
  const d = loadDialect('dicechess-com', sets);
  if (!d.ok) throw new Error(d.error[0].message);
  return d.value;
};
const clean = (status: string): boolean => status === 'conforming' || status === 'faulty';

/**
 * `cube.declineLoses` (docs/rules.md §4): on generated dicechess-com games ended by a
 * declined double, the pairs walkGame counts are the pairs the replayer tells apart when the
 * record's place for the cost (none; a settled amount, as a history list's moneyDelta gives
 * it; an ingest-wire final stake) is given every figure either value could make it, judged
 * under every value. The generator's records state no cost of their own (their final stake
 * is the cube's, pre-offer, by construction): the places are added here.
 */
describe('decline opportunities against brute force (every stated cost judged under every value)', () => {
  it.each([
    [['pre-offer-stake', 'post-offer-stake']],
    [['post-offer-stake', 'pre-offer-stake']],
  ] as const)('%j', (values) => {
    expect(opportunityKind('cube.declineLoses')).toBe('decline');
    const prepared = values.map((v) => dialectOf([`cube.declineLoses=${v}`])).map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    const d = dialectOf([]);
    const ctx = makeContext(d.name, d.rules);
    const rates = { ...DEFAULT_RATES, resign: 0.05, timeout: 0, drawAgreement: 0, x2: 1, double: 0.3 };
    const declined = Array.from({ length: 60 }, (_, index) => playGame(ctx, { index, seed: 'decline-brute', format: 'ndjson', bots: ['random', 'greedy'], rates }).record).filter((r) => declineCosts(r) !== null);
    let placesJudged = 0;
    let pairsSeen = 0;
    for (const [index, r] of declined.entries()) {
      const { decliner, costs } = declineCosts(r)!;
      const winner: 'w' | 'b' = decliner === 'w' ? 'b' : 'w';
      const figures = [costs['pre-offer-stake'], costs['post-offer-stake']];
      // The record as generated (no place), with each side's settled amount, and as an ingest-wire record with its final stake.
      const variants: Array<{ record: GameRecord; candidates: GameRecord[] }> = [
        { record: r, candidates: [] },
        ...[decliner, winner].map((side) => {
          const sign = side === decliner ? -1 : 1;
          const withAmount = (amount: number): GameRecord => ({ ...r, stakes: { ...r.stakes!, settled: { side, amount } } });
          return { record: withAmount(sign * figures[0]), candidates: [...figures.map((f) => withAmount(sign * f)), withAmount(sign * figures[0] * 0.95)] };
        }),
        (() => {
          const withFinal = (final: number): GameRecord => ({ ...r, format: 'ingest-wire', stakes: { ...r.stakes!, final } });
          return { record: withFinal(figures[0]), candidates: [...figures, figures[0] * 3].map(withFinal) };
        })(),
      ];
      for (const { record, candidates } of variants) {
        const conforming = prepared.map((p) => clean(replayGame(record, p, index).status));
        if (!conforming.some(Boolean)) continue;
        const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
        const found = walkGame(record, engines[conforming.indexOf(true)], index, [{ path: 'cube.declineLoses', values, kind: 'decline', engines, conforming, wantExample: values.map(() => values.map(() => true)) }], trace);
        expect(found).not.toBeNull();
        const accepted = candidates.map((c) => prepared.map((p) => clean(replayGame(c, p, index).status)));
        const expected = new Set<string>();
        conforming.forEach((c, j) => {
          if (c) values.forEach((_, k) => k !== j && accepted.some((a) => a[k] && !a[j]) && expected.add(`${j}>${k}`));
        });
        const counted = new Set(trace.map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} ${record.format} ${JSON.stringify(record.stakes)}`).toEqual([...expected].sort());
        found!.turns[0].forEach((row, j) => row.forEach((m, k) => m > 0 && expect(found!.examples[0][j][k]).toMatchObject({ id: r.id, kind: 'decline' })));
        placesJudged++;
        pairsSeen += expected.size;
      }
    }
    expect(declined.length).toBeGreaterThan(3);
    expect(placesJudged).toBeGreaterThan(12);
    // Generated games must give the comparison something to find (else it proves nothing).
    expect(pairsSeen).toBeGreaterThan(0);
  }, 600_000);
});
