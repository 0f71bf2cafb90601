import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/index.js';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import type { GameRecord } from '../../records/model/game-record.js';
import { prepareDialect, replayGame } from '../../replay/replay-game.js';
import { GameState } from '../../rules/index.js';
import { walkGame } from './game-walk.js';
import { allowedRolls, chanceWeight, rollChance, rollOpportunities } from './roll.js';
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
 * `dice.draw` and `dice.movableTest` (docs/rules.md §2.10, §7, §13): on generated games, the
 * pairs walkGame counts at each roll are the pairs the replayer tells apart there. The record
 * is cut after that turn, its roll replaced by every roll the dice could show (with a legal
 * turn for it, or a pass) and judged under every value with the record's reveal: a value
 * accepts the roll when it finds nothing at that turn.
 *
 * And the weight of each counted roll, known from the dice alone: every value's dice draw
 * uniformly among the ordered rolls it accepts (fair dice: all of them, the shipped dialects'
 * faces being 1–6 once each; a die drawn from the movable types: those types; seeds: their
 * roll), so the chance under the rival k that the roll falls among those the value j allows
 * is |accepted by j and k| / |accepted by k|, and the weight −log10 of it.
 */
describe('roll opportunities against brute force (every roll of each turn judged under every value)', () => {
  it.each([
    // BrainKing's die: the types that can move, against fair dice and seeds without a reveal.
    ['brainking-one-die', [], 'dice.draw', ['movable-types', 'fair', 'provably-fair'], 14, 60, true],
    // The same games drawn from seeds, with their reveal: the seeds' roll alone.
    ['brainking-one-die', ['dice.draw=provably-fair'], 'dice.draw', ['provably-fair', 'fair', 'movable-types'], 10, 60, true],
    // Three dice from seeds (216 rolls a turn): the first turns of a few games.
    ['reference', [], 'dice.draw', ['provably-fair', 'fair'], 4, 6, true],
    // Fair dice and no reveal: every value allows every roll, nothing to count.
    ['beturanga', [], 'dice.draw', ['fair', 'provably-fair'], 4, 6, false],
    // What "can move" means for BrainKing's die: an allowed micro-move, or vchess's step test (no en passant, no castling, no check).
    ['brainking-one-die', [], 'dice.movableTest', ['allowed-move', 'step'], 30, 160, true],
    ['brainking-one-die', ['dice.movableTest=step'], 'dice.movableTest', ['step', 'allowed-move'], 30, 160, true],
  ] as const)('%s %j %s: %j', (name, sets, path, values, n, maxTurns, findsSome) => {
    expect(opportunityKind(path)).toBe('roll');
    const played = dialectOf(name, [...sets]);
    const prepared = values.map((v) => dialectOf(name, [...sets, `${path}=${v}`])).map((d) => prepareDialect(d.name, d.rules));
    const engines = prepared.map((d) => d.engine);
    const ctx = makeContext(played.name, played.rules);
    const rates = { ...DEFAULT_RATES, resign: 0.1, timeout: 0, drawAgreement: 0 };
    const records = Array.from({ length: n }, (_, index) => playGame(ctx, { index, seed: `roll-${name}-${values[0]}`, format: 'ndjson', bots: ['random', 'greedy'], rates }).record);
    const rolls = allRolls(played.rules.dice.count);
    let turnsJudged = 0;
    let pairsSeen = 0;
    let weighed = 0;
    for (const [index, r] of records.entries()) {
      const conforming = prepared.map((p) => clean(replayGame(r, p, index).status));
      if (!conforming.some(Boolean)) continue;
      const trace: Array<{ option: number; value: number; rival: number; turn: number; weight?: number }> = [];
      const walker = engines[conforming.indexOf(true)];
      const found = walkGame(r, walker, index, [{ path, values, kind: 'roll', engines, conforming, wantExample: values.map(() => values.map(() => true)) }], trace);
      expect(found).not.toBeNull();
      const g = GameState.start(walker, r.startFen);
      if (!g.ok) throw new Error(g.error.message);
      for (let t = 0; t < Math.min(r.turns.length, maxTurns); t++) {
        if (g.value.outcome) break;
        const turn = r.turns[t];
        const accepted = prepared.map(() => false);
        // Per value, the ordered rolls its dice can show (no finding of a dice rule; by index into `rolls`).
        const acceptedRolls = prepared.map(() => new Set<number>());
        for (const [ri, roll] of rolls.entries()) {
          const legal = g.value.legalTurns(roll as Role[], 1)[0] ?? [];
          const changed = { ...turn, dice: roll, moves: legal.map((m) => g.value.uci(m)), fenAfter: null, clockMs: null, thinkingMs: null, diceFlags: null };
          const cut: GameRecord = { ...r, turns: [...r.turns.slice(0, t), changed], termination: 'unknown', result: null, events: r.events.filter((e) => e.turn <= t) };
          // What a value allows at this roll, whatever it found earlier in the game (a rival the game does not conform under still counts).
          const found = prepared.map((p) => replayGame(cut, p, index, { continueAfterDivergence: true }).findings.filter((f) => f.turn === t + 1));
          const ok = found.map((f) => f.length === 0);
          // The roll itself (its dice rules and the reveal), whatever the turn chosen for it makes of the cut record (a king taken where the record goes on).
          const rollOk = found.map((f) => !f.some((x) => x.rule.startsWith('dice.')));
          // A value that accepts some roll the other refuses: the pair, once per turn.
          ok.forEach((a, k) => a && (accepted[k] = true));
          rollOk.forEach((a, k) => a && acceptedRolls[k].add(ri));
          conforming.forEach((c, j) => {
            if (!c) return;
            values.forEach((_, k) => k !== j && ok[k] && !ok[j] && trace.push({ option: -1, value: j, rival: k, turn: t + 1 }));
          });
        }
        const expected = new Set(trace.filter((x) => x.option === -1 && x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        const counted = new Set(trace.filter((x) => x.option === 0 && x.turn === t + 1).map((x) => `${x.value}>${x.rival}`));
        expect([...counted].sort(), `${r.id} roll of turn ${t + 1}`).toEqual([...expected].sort());
        // Each counted roll weighs what the rival's dice make of it.
        for (const x of trace.filter((y) => y.option === 0 && y.turn === t + 1)) {
          const both = [...acceptedRolls[x.rival]].filter((ri) => acceptedRolls[x.value].has(ri)).length;
          const chance = both / acceptedRolls[x.rival].size;
          expect(x.weight, `${r.id} turn ${t + 1}: ${values[x.value]} against ${values[x.rival]}, chance ${both}/${acceptedRolls[x.rival].size}`).toBe(chanceWeight(chance));
          // A roll the rival's dice could not show at all (the seeds' type where it cannot move) refutes the rival outright: it weighs nothing here.
          if (chance > 0) weighed++;
        }
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
    if (findsSome) expect(weighed).toBeGreaterThan(0);
  }, 600_000);

  it("a roll's chance under the rival's dice: known answers", () => {
    const fair = [0, 1, 1, 1, 1, 1, 1].map((x) => x / 6);
    // One fair die showing one of the two types that can move: 2 in 6.
    expect(rollChance({ kind: 'all' }, { kind: 'faces', faces: [1, 2] }, fair, true)).toBeCloseTo(2 / 6, 12);
    // Three fair dice giving the seeds' roll: 1 in 216 in roll order, 3 in 216 compared sorted (2,6,6 has three orderings).
    expect(rollChance({ kind: 'all' }, { kind: 'one', roll: [2, 6, 6] }, fair, true)).toBeCloseTo(1 / 216, 15);
    expect(rollChance({ kind: 'all' }, { kind: 'one', roll: [2, 6, 6] }, fair, false)).toBeCloseTo(3 / 216, 15);
    // BrainKing's die over three movable types: the seeds' type 1 in 3; two of the three types 2 in 3; a type it cannot draw, never.
    expect(rollChance({ kind: 'faces', faces: [1, 2, 3] }, { kind: 'one', roll: [2] }, fair, true)).toBeCloseTo(1 / 3, 12);
    expect(rollChance({ kind: 'faces', faces: [1, 2, 3] }, { kind: 'faces', faces: [1, 2] }, fair, true)).toBeCloseTo(2 / 3, 12);
    expect(rollChance({ kind: 'faces', faces: [1, 2, 3] }, { kind: 'one', roll: [5] }, fair, true)).toBe(0);
    // Weights in millionths of log10: log10 6/2 = 0.477121…, log10 216 = 2.334453…; a chance of 0 refutes outright and weighs nothing here.
    expect(chanceWeight(2 / 6)).toBe(477121);
    expect(chanceWeight(1 / 216)).toBe(2334454);
    expect(chanceWeight(0)).toBe(0);
    // The weights reach the counts: the seeds' roll against fair dice (three dice) and against the movable types (one die).
    const weights: number[] = [];
    rollOpportunities([{ kind: 'one', roll: [2] }, { kind: 'all' }, { kind: 'faces', faces: [1, 2] }], [true, false, false], [[0, 0, 0], [0, 0, 0], [0, 0, 0]], (_j, _k, w) => weights.push(w), [fair, fair, fair]);
    expect(weights).toEqual([chanceWeight(1 / 6), chanceWeight(1 / 2)]);
  });

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
