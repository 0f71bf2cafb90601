import { describe, expect, it } from 'vitest';
import { EXAMPLES, emptyGroup, emptyTally, keepFirst, mergeTally, type Example, type InferTally } from './tally.js';

const example = (index: number, id = `g${index}`): Example => ({
  id,
  index,
  location: `games.ndjson:${index + 1}`,
  kind: 'decisive',
  findingValue: 1,
  rule: 'turn.maximum',
  message: 'm',
  turn: 3,
  dfen: null,
  dice: null,
  recorded: [],
  checkable: false,
});

/** A batch of games as one thread would count it: one option of two values, two named dialects. */
function batch(first: number, games: number, opts: { conforming0: number; decisive0: number; corpus: string; unreadable?: number }): InferTally {
  const t = emptyTally(2, [2]);
  t.games = games;
  t.unreadable = opts.unreadable ?? 0;
  if (t.unreadable > 0) {
    t.unreadableCodes['record.json'] = t.unreadable;
    t.unreadableExamples = Array.from({ length: t.unreadable }, (_, i) => ({ index: first + i, location: null, code: 'record.json', message: 'bad' }));
  }
  t.baseConforming = opts.conforming0;
  t.named = [opts.conforming0, games - opts.conforming0];
  const v0 = t.options[0][0];
  v0.conforming = opts.conforming0;
  v0.diverging = games - opts.conforming0;
  v0.decisive = opts.decisive0;
  v0.opportunities[1] = 2;
  v0.opportunityGames[1] = 1;
  v0.rules = { 'turn.maximum': games - opts.conforming0 };
  v0.byCorpus[opts.corpus] = [opts.conforming0, opts.decisive0];
  v0.decisiveExamples = Array.from({ length: opts.decisive0 }, (_, i) => example(first + i));
  v0.divergingExample = example(first + games - 1);
  t.groups[`source ${opts.corpus}`] = emptyGroup([2]);
  t.groups[`source ${opts.corpus}`].games = games;
  t.groups[`source ${opts.corpus}`].options[0][0].conforming = opts.conforming0;
  t.groups['month 2025-01'] = emptyGroup([2]);
  t.groups['month 2025-01'].games = games;
  t.judgeMs = 10;
  t.cheapTurns = 3;
  return t;
}

describe('infer tallies merge by addition, whatever the order', () => {
  it('an empty tally has zeros of the plan\'s shape', () => {
    const t = emptyTally(3, [2, 4]);
    expect(t.named).toEqual([0, 0, 0]);
    expect(t.options.map((o) => o.length)).toEqual([2, 4]);
    expect(t.options[1][2].opportunities).toEqual([0, 0, 0, 0]);
    expect(t.options[1][2].opportunityExamples).toEqual([null, null, null, null]);
    expect(t.games + t.unreadable + t.confirmation).toBe(0);
  });

  it('adds counts, per corpus and per group; both orders give the same tally', () => {
    const make = () => [batch(0, 10, { conforming0: 6, decisive0: 4, corpus: 'a.ndjson', unreadable: 1 }), batch(10, 5, { conforming0: 5, decisive0: 3, corpus: 'b.ndjson' }), batch(15, 4, { conforming0: 1, decisive0: 1, corpus: 'a.ndjson', unreadable: 2 })];
    const [x, y, z] = make();
    const forward = mergeTally(mergeTally(mergeTally(emptyTally(2, [2]), x), y), z);
    const [x2, y2, z2] = make();
    const backward = mergeTally(mergeTally(mergeTally(emptyTally(2, [2]), z2), y2), x2);
    expect(backward).toEqual(forward);

    expect(forward.games).toBe(19);
    expect(forward.unreadable).toBe(3);
    expect(forward.unreadableCodes).toEqual({ 'record.json': 3 });
    expect(forward.baseConforming).toBe(12);
    expect(forward.named).toEqual([12, 7]);
    const v0 = forward.options[0][0];
    expect([v0.conforming, v0.diverging, v0.decisive]).toEqual([12, 7, 8]);
    expect(v0.opportunities).toEqual([0, 6]);
    expect(v0.opportunityGames).toEqual([0, 3]);
    expect(v0.rules).toEqual({ 'turn.maximum': 7 });
    expect(v0.byCorpus).toEqual({ 'a.ndjson': [7, 5], 'b.ndjson': [5, 3] });
    expect(forward.groups['source a.ndjson'].games).toBe(14);
    expect(forward.groups['source a.ndjson'].options[0][0].conforming).toBe(7);
    expect(forward.groups['month 2025-01'].games).toBe(19);
    expect(forward.judgeMs).toBe(30);
    expect(forward.cheapTurns).toBe(9);
  });

  it('keeps the examples with the lowest input positions, at most EXAMPLES', () => {
    const late = batch(100, 10, { conforming0: 2, decisive0: 6, corpus: 'a', unreadable: 4 });
    const early = batch(0, 10, { conforming0: 7, decisive0: 2, corpus: 'a', unreadable: 3 });
    const t = mergeTally(mergeTally(emptyTally(2, [2]), late), early);
    const v0 = t.options[0][0];
    expect(v0.decisiveExamples.map((e) => e.index)).toEqual([0, 1, 100, 101, 102]);
    expect(v0.decisiveExamples).toHaveLength(EXAMPLES);
    expect(v0.divergingExample?.index).toBe(9);
    expect(t.unreadableExamples.map((e) => e.index)).toEqual([0, 1, 2, 100, 101]);
  });

  it('keeps the first opportunity example against each value', () => {
    const a = emptyTally(0, [2]);
    const b = emptyTally(0, [2]);
    const opp = (index: number) => ({ id: `g${index}`, index, location: null, turn: 1, dfen: '8/8/8/8/8/8/8/K6k w - - 0 1 P', dice: 'P', recorded: [], kind: 'turn' as const, allowed: 'x', witness: null });
    a.options[0][1].opportunityExamples[0] = opp(7);
    b.options[0][1].opportunityExamples[0] = opp(3);
    expect(mergeTally(a, b).options[0][1].opportunityExamples).toEqual([opp(3), null]);
  });

  it('keepFirst sorts by input position and cuts at the limit', () => {
    expect(keepFirst([example(5), example(1)], [example(3), example(0)], 3).map((e) => e.index)).toEqual([0, 1, 3]);
    expect(keepFirst([], [], 5)).toEqual([]);
  });
});
