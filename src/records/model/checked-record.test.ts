import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../dialects/index.js';
import { checkedRecord, checkedTurns, formedTurns } from './checked-record.js';
import { FORMAT_NAMES } from './game-record.js';
import { GameRecord } from './game-record-schema.js';
import { collect, FIXTURES, records } from '../test-support/collect.js';
import { randomGame } from '../test-support/random-game.js';

/** The hand-written check and zod answer alike: both reject, or both accept with the same record, field order included. */
function agree(input: unknown): void {
  const viaZod = GameRecord.safeParse(structuredClone(input));
  const checked = checkedRecord(structuredClone(input));
  expect(checked !== null, JSON.stringify(input).slice(0, 300)).toBe(viaZod.success);
  if (checked !== null && viaZod.success) expect(JSON.stringify(checked)).toBe(JSON.stringify(viaZod.data));
}

type O = Record<string, unknown>;

/** What readers hand the schema: defaults left out, nulls where a field is unknown (each record in a few such shapes). */
function shapes(r: GameRecord): unknown[] {
  const sparse = JSON.parse(JSON.stringify(r, (k, v) => (v === null && k !== 'result' && k !== 'w' && k !== 'b' ? undefined : v))) as O;
  const noDefaults = structuredClone(r) as unknown as O;
  for (const k of ['site', 'location', 'mode', 'chess960', 'startedAt', 'finishedAt', 'rated', 'timeControl', 'stakes', 'events', 'termination', 'fairness', 'notes']) delete noDefaults[k];
  for (const t of noDefaults.turns as O[]) for (const k of ['diceOrder', 'fenAfter', 'clockMs', 'thinkingMs', 'diceFlags', 'location']) delete t[k];
  return [r, sparse, noDefaults];
}

/** Random edits of JSON text, the fuzz corpus of the readers' tests. */
const edited = (texts: string[]) =>
  fc
    .tuple(fc.constantFrom(...texts), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.string({ maxLength: 3 })), { maxLength: 3 }))
    .map(([text, edits]) => {
      for (const [at, del, ins] of edits) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + ins + text.slice(i + del);
      }
      return text;
    });

describe('the hand-written schema check is the zod schema', () => {
  it("on every record of every format's fixtures and of the samples, in the shapes readers give", async () => {
    // Every fixture record, and every 25th sample record (the samples are thousands).
    const all = [...records(await collect([FIXTURES])), ...records(await collect([path.join(packageRoot(), 'corpora/samples')])).filter((_, i) => i % 25 === 0)];
    expect(new Set(all.map((r) => r.format))).toEqual(new Set(FORMAT_NAMES));
    for (const r of all) for (const shape of shapes(r)) agree(shape);
  });

  it('on the fuzz corpus: records with random edits, random values where fields go, arbitrary JSON', () => {
    const texts = [1, 2, 3, 4, 5].flatMap((s) => shapes(randomGame(s, { turns: 3 })).map((x) => JSON.stringify(x)));
    const values = fc.oneof(fc.constant(null), fc.constant(undefined), fc.integer(), fc.double(), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant([]), fc.constant({}));
    const replaced = fc.tuple(fc.constantFrom(...texts), fc.nat(), values).map(([text, at, v]) => {
      // One field (at any depth) given another value.
      const doc = JSON.parse(text) as O;
      const holders: Array<[O, string]> = [];
      const walk = (o: unknown): void => {
        if (o === null || typeof o !== 'object') return;
        for (const k of Object.keys(o)) {
          holders.push([o as O, k]);
          walk((o as O)[k]);
        }
      };
      walk(doc);
      const [holder, key] = holders[at % holders.length];
      holder[key] = v;
      return doc;
    });
    fc.assert(
      fc.property(fc.oneof(edited(texts).map((t) => ({ t })), replaced.map((d) => ({ d })), fc.json().map((t) => ({ t }))), (x) => {
        if ('d' in x) return agree(x.d);
        let doc: unknown;
        try {
          doc = JSON.parse(x.t);
        } catch {
          return;
        }
        agree(doc);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('turns built in the schema’s form', () => {
  it('are taken as they are, where other turns are checked', () => {
    const record = JSON.parse(JSON.stringify(randomGame(7))) as GameRecord;
    const bad = { ...record, turns: record.turns.map((t, i) => (i === 0 ? { ...t, dice: [7] } : t)) };
    // Unmarked, a die of 7 is refused (zod words it); marked as built in the schema's form, the list is the record's own.
    expect(checkedRecord(bad)).toBeNull();
    expect(checkedTurns(bad.turns)).toBeNull();
    const good = { ...record, turns: formedTurns(record.turns.slice()) };
    expect(checkedRecord(good)!.turns).toBe(good.turns);
    expect(JSON.stringify(checkedRecord(good))).toBe(JSON.stringify(checkedRecord(record)));
  });
});
