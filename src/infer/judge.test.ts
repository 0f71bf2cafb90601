import { describe, expect, it } from 'vitest';
import { finaliseRecord } from '../records/model/finalise.js';
import type { GameRecord } from '../records/model/game-record.js';
import type { ReadItem } from '../records/items.js';
import { loadDialect } from '../dialects/index.js';
import { dialectSpec, type DialectSpec } from '../replay/judge-record.js';
import { createJudge, monthOf, type InferPlan } from './judge.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A game of the given turns (side alternating from White), unfinished, started in `startedAt`. */
function game(id: string, turns: Array<{ dice: number[]; moves: string[] }>, startedAt: string | null = '2025-03-04T10:00:00Z'): GameRecord {
  return finaliseRecord(
    {
      id,
      format: 'ndjson',
      startFen: START,
      startedAt,
      players: { white: {}, black: {} },
      turns: turns.map((t, i) => ({ side: i % 2 === 0 ? 'w' : 'b', dice: t.dice, moves: t.moves })),
      result: null,
    },
    new Set(),
  );
}

/** One option, the maximum rule, under `path` (the reference's own, index 0) and `none`. */
const spec = (sets: string[]): DialectSpec => {
  const loaded = loadDialect('reference', sets);
  if (!loaded.ok) throw new Error(loaded.error.map((p) => p.message).join('; '));
  return dialectSpec(loaded.value, sets);
};
const PLAN: InferPlan = {
  base: spec([]),
  options: [{ path: 'maximum', values: ['path', 'none'], dialects: [spec([]), spec(['maximum=none'])], baseIndex: 0 }],
  named: [spec([])],
};

/** The infer judge emits no result lines (its outcome is the tally): one would fail the test. */
const noLines = (): void => {
  throw new Error('the infer judge emitted a result line');
};

const item = (index: number, record: GameRecord): ReadItem => ({ kind: 'record', index, record });

describe('infer judge (docs/rules.md §3: path against none)', () => {
  // Three pawn dice from the start: three pawn moves can be played, so under `path` a turn of
  // one pawn move is illegal (§3); under `none` any non-empty prefix of a line is a turn (§12.3).
  // (A reply follows: the last turn of an unfinished record may have been cut off by the recording.)
  const reply = { dice: [1, 1, 1], moves: ['e7e5', 'd7d5', 'a7a6'] };
  const short = game('short', [{ dice: [1, 1, 1], moves: ['e2e4'] }, reply]);
  const full = game('full', [{ dice: [1, 1, 1], moves: ['e2e4', 'd2d4', 'a2a3'] }, reply], null);

  it('counts a game legal under one value only as decisive for it, and diverging under the other with its rule', () => {
    const judge = createJudge(PLAN);
    judge.judge(item(0, short), noLines, 'a.ndjson');
    const t = judge.takeState();
    expect(t.games).toBe(1);
    expect(t.baseConforming).toBe(0);
    expect(t.named).toEqual([0]);
    const [path, none] = t.options[0];
    expect([path.conforming, path.diverging, path.decisive]).toEqual([0, 1, 0]);
    expect([none.conforming, none.diverging, none.decisive]).toEqual([1, 0, 1]);
    expect(Object.keys(path.rules)).toHaveLength(1);
    expect(path.divergingExample).toMatchObject({ id: 'short', index: 0, kind: 'diverging', turn: 1 });
    // The decisive example shows the rival's finding, at the start of that turn, checkable alone.
    expect(none.decisiveExamples).toHaveLength(1);
    expect(none.decisiveExamples[0]).toMatchObject({ id: 'short', kind: 'decisive', findingValue: 0, turn: 1, recorded: ['e2e4'], checkable: true });
    expect(none.decisiveExamples[0].dfen).toBe(`${START} PPP`);
    expect(none.byCorpus).toEqual({ 'a.ndjson': [1, 1] });
    expect(t.groups['source a.ndjson'].games).toBe(1);
    expect(t.groups['month 2025-03'].options[0][1]).toMatchObject({ conforming: 1, decisive: 1 });
  });

  it('counts a game legal under both values as conforming for both and decisive for neither', () => {
    const judge = createJudge(PLAN);
    judge.judge(item(3, full), noLines, 'b.ndjson');
    const t = judge.takeState();
    expect(t.baseConforming).toBe(1);
    expect(t.named).toEqual([1]);
    expect(t.options[0].map((v) => [v.conforming, v.decisive])).toEqual([[1, 0], [1, 0]]);
    expect(t.groups['month unknown'].games).toBe(1);
  });

  it('counts unreadable records apart, and hands over a fresh tally per batch', () => {
    const judge = createJudge(PLAN);
    judge.judge({ kind: 'unreadable', index: 0, source: 'x.ndjson', location: 'x.ndjson:1', id: null, code: 'record.json', message: 'not JSON' }, noLines, 'x.ndjson');
    judge.judge(item(1, full), noLines, 'x.ndjson');
    const first = judge.takeState();
    expect([first.games, first.unreadable]).toEqual([1, 1]);
    expect(first.unreadableCodes).toEqual({ 'record.json': 1 });
    expect(first.unreadableExamples[0]).toMatchObject({ index: 0, location: 'x.ndjson:1', code: 'record.json' });
    const second = judge.takeState();
    expect([second.games, second.unreadable]).toEqual([0, 0]);
  });

  it('confirmation pass: counts the games conforming under the one dialect', () => {
    const judge = createJudge({ ...PLAN, confirm: spec(['maximum=none']) });
    judge.judge(item(0, short), noLines, null);
    judge.judge(item(1, full), noLines, null);
    const t = judge.takeState();
    expect([t.games, t.confirmation]).toEqual([2, 2]);
    const strict = createJudge({ ...PLAN, confirm: spec([]) });
    strict.judge(item(0, short), noLines, null);
    expect(strict.takeState().confirmation).toBe(0);
  });

  it('monthOf reads YYYY-MM from the start date, else unknown', () => {
    expect(monthOf(short)).toBe('2025-03');
    expect(monthOf(full)).toBe('unknown');
  });
});
