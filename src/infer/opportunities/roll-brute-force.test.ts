import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/index.js';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { prepareDialect, replayGame } from '../../replay/replay-game.js';
import { GameState } from '../../rules/index.js';
import { walkGame } from './game-walk.js';
import { allowedRolls, rollOpportunities } from './roll.js';
import { opportunityKind } from './turn-tests.js';

const dialectOf = (name: string, sets: string[]) => {
  const d = loadDialect(name, sets);
  if (!d.ok) throw new Error(`${name} ${sets.join(' ')}: ${d.error[0].message}`);
  return d.value;
};

/** Every ordered roll of `count` dice. */
function allRolls(count: number): number[][] {
  let out: number[][] = [[]];
  for (let i = 0; i < count; i++) out = out.flatMap((r) => [1, 2, 3, 4, 5, 6].map((f) => [...r, f]));
  return out;
}

const clean = (status: string): boolean => status === 'conforming' || status === 'faulty';

/**
 * `dice.draw` (docs/rules.md §2.10, §7): on generated games, the pairs walkGame counts at
 * each roll are the pairs the replayer tells apart there. The record is cut after that
 * turn, its roll replaced by every roll the dice could show (with a legal turn for it, or a
 * pass) and judged under every value with the record's reveal: a value accepts the roll
 * when it finds nothing at that turn.
 */
describe('roll opportunities against brute force (every roll of each turn judged under every value)', () => {
  it.each([
    // BrainKing's die: the types that can move, against fair dice and seeds without a reveal.
    ['brainking-one-die', [], ['movable-types', 'fair', 'provably-fair'], 14, 60, true],
    // The same games drawn from seeds, with their reveal: the seeds' roll alone.
    ['brainking-one-die', ['dice.draw=provably-fair'], ['provably-fair', 'fair', 'movable-types'], 10, 60, true],
    // Three dice from seeds (216 rolls a turn): the first turns of a few games.
    ['reference', [], ['provably-fair', 'fair'], 4, 6, true],
    // Fair dice and no reveal: every value allows every roll, nothing to count.
    ['beturanga', [], ['fair', 'provably-fair'], 4, 6, false],
  ] as const)('%s %j: %j', (name, sets, values, n, maxTurns, findsSome) => {
    expect(opportunityKind('dice.draw')).toBe('roll');
    const played = dialectOf(name, [...sets]);
    const prepared = values.map((v) => dialectOf(name, [...sets, `dice.draw=${v}`])).map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    const ctx = makeContext(played.name, played.rules);
    const rates = { ...DEFAULT_RATES, resign: 0.1, timeout: 0, drawAgreement: 0 };
    const records = Array.from({ length: n }, (_, index) => playGame(ctx, { index, seed: `roll-${name}-${values[0]}`, format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
    const rolls = allRolls(played.rules.dice.count);
    let turnsJudged = 0;
    let pairsSeen = 0;
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((p) => clean(replayGame(r, p, index).status));
      if (!conforming.some(Boolean)) continue;
      const trace: Array<{ option: number; value: number; rival: number; turn: number }> = [];
      const walker = engines[conforming.indexOf(true)];
      const found = walkGame(r, walker, index, [{ path: 'dice.draw', values, kind: 'roll', engines, conforming, wantExample: values.map(() => values.map(() => true)) }], trace);
      expect(found).not.toBeNull();
      const g = GameState.start(walker, r.startFen);
      if (!g.ok) throw new Error(g.error.message);
      for (let t = 0; t < Math.min(r.turns.length, maxTurns); t++) {
        if (g.value.outcome) break;
        const turn = r.turns[t];
        const accepted = prepared.map(() => false);
        for (const roll of rolls) {
          const legal = g.value.legalTurns(roll as Role[], 1)[0] ?? [];
          const changed = { ...turn, dice: roll, moves: legal.map((m) => g.value.uci(m)), fenAfter: null, clockMs: null, thinkingMs: null, diceFlags: null };
          const cut: GameRecord = { ...r, turns: [...r.turns.slice(0, t), changed], termination: 'unknown', result: null, events: r.events.filter((e) => e.turn <= t) };
          // What a value allows at this roll, whatever it found earlier in the game (a rival the game does not conform under still counts).
          const ok = prepared.map((p) => !replayGame(cut, p, index, { continueAfterDivergence: true }).findings.some((f) => f.turn === t + 1));
          // A value that accepts some roll the other refuses: the pair, once per turn.
          ok.forEach((a, k) => a && (accepted[k] = true));
          conforming.forEach((c, j) => {
            if (!c) return;
            values.forEach((_, k) => k !== j && ok[k] && !ok[j] && trace.push({ option: -1, value: j, rival: k, turn: t + 1 }));
          });
        }
        const expected = new Set(trace.filter((x) => x.option === -1 && x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        const counted = new Set(trace.filter((x) => x.option === 0 && x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} roll of turn ${t + 1}`).toEqual([...expected].sort());
        expect(accepted.some(Boolean), `${r.id}: some roll is accepted at turn ${t + 1}`).toBe(true);
        turnsJudged++;
        pairsSeen += expected.size;
        const v = g.value.playRecorded(turn.dice as Role[], turn.moves, { partial: t === r.turns.length - 1 });
        if (!v.ok || !v.complete) break;
      }
      // Every counted pair has its example.
      found!.turns[0].forEach((row, j) => row.forEach((m, k) => m > 0 && expect(found!.examples[0][j][k]).toMatchObject({ id: r.id, kind: 'roll' })));
    }
    expect(turnsJudged).toBeGreaterThan(20);
    // Generated games must give the comparison something to find (else it proves nothing).
    if (findsSome) expect(pairsSeen).toBeGreaterThan(0);
    else expect(pairsSeen).toBe(0);
  }, 600_000);

  it('a roll set allows what it should', () => {
    const rules = (v: string) => dialectOf('brainking-one-die', [`dice.draw=${v}`]).rules;
    expect(allowedRolls(rules('fair'), [1, 2], false, [1])).toEqual({ kind: 'all' });
    expect(allowedRolls(rules('movable-types'), [1, 2], false, [1])).toEqual({ kind: 'faces', faces: [1, 2] });
    // Nothing can move (or everything can): every face is allowed.
    expect(allowedRolls(rules('movable-types'), [], false, [4])).toEqual({ kind: 'all' });
    expect(allowedRolls(rules('provably-fair'), [1, 2], true, [2])).toEqual({ kind: 'one', roll: [2] });
    expect(allowedRolls(rules('provably-fair'), [1, 2], false, [2])).toEqual({ kind: 'all' });
    const out = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
    rollOpportunities([{ kind: 'one', roll: [2] }, { kind: 'all' }, { kind: 'faces', faces: [1, 2] }], [true, true, true], out);
    // The seeds' roll against fair dice and against the movable types; the movable types against fair dice.
    expect(out).toEqual([[0, 1, 1], [0, 0, 0], [0, 1, 0]]);
  });
});
