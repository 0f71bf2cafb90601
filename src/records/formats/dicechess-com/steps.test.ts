import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordProblem, type Problem } from '../../problems.js';
import { type Die, diceKeyOf, inPropertyOrder, moveOf, parseSteps, stepWhere } from './steps.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1';
const die = (value: string, allowed = true, used = false) => ({ value, allowed, used });

/** The problem a reader would report, or null. */
function problemOf(run: () => unknown): Problem | null {
  try {
    run();
    return null;
  } catch (e) {
    if (e instanceof RecordProblem) return e.problem;
    throw e;
  }
}

describe('dicechess.com state map steps (docs/formats.md, State maps)', () => {
  it('orders steps by number, not by text, across gaps', () => {
    const map = {
      '10': { fen: AFTER_E4, dices: [die('P', true, true), die('N'), die('B')], gameMoveHistoryMove: null },
      '2': { fen: START, dices: [die('P'), die('N'), die('B')], gameMoveHistoryMove: null },
      '9': { fen: AFTER_E4, dices: [die('P', true, true), die('N'), die('B')], gameMoveHistoryMove: { from: 'E2', to: 'E4', promotion: 'NONE' } },
    };
    const steps = parseSteps(map, 'g.json', new Set());
    expect(steps.map((s) => s.n)).toEqual([2, 9, 10]);
    expect(steps.map((s) => s.move)).toEqual([null, 'e2e4', null]);
  });

  it('reads letter dice in roll order (upper case White, lower case Black), flags, clocks and bank', () => {
    const notes = new Set<string>();
    const [s] = parseSteps({ '0': { fen: START, dices: [die('Q', false), die('k', true, true), die('P')], gameMoveHistoryMove: null, leftTime: { alice: 180000, bob: '179500' }, bank: '40' } }, 'g', notes);
    expect(s.dice).toEqual([
      { face: 5, side: 'w', allowed: false, used: false },
      { face: 6, side: 'b', allowed: true, used: true },
      { face: 1, side: 'w', allowed: true, used: false },
    ]);
    expect(s.diceKey).toBe(((81 * 128 + 107) * 128) + 80); // Q, k, P
    expect(s.toMove).toBe('w');
    expect(s.board).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
    expect(s.leftTime).toEqual({ keys: ['alice', 'bob'], ms: [180000, 179500] });
    expect(s.bank).toBe(40);
    expect(notes.has('dice:letters')).toBe(true);
    expect(diceKeyOf([])).toBe(0);
  });

  it('gives two dice lists the same key exactly when they spell the same letters, up to seven dice and beyond', () => {
    const spell = (dice: Die[]): string => dice.map((d) => (d.side === null ? String(d.face) : d.side === 'w' ? 'PNBRQK'[d.face - 1] : 'pnbrqk'[d.face - 1])).join('');
    const oneDie = fc.record({ face: fc.integer({ min: 1, max: 6 }), side: fc.constantFrom<Die['side']>('w', 'b', null), allowed: fc.boolean(), used: fc.boolean() });
    const dice = fc.array(oneDie, { maxLength: 10 });
    fc.assert(
      fc.property(dice, dice, (a, b) => {
        expect(diceKeyOf(a) === diceKeyOf(b)).toBe(spell(a) === spell(b));
        expect(diceKeyOf(a)).toBe(diceKeyOf(a.map((d) => ({ ...d, allowed: !d.allowed }))));
      }),
      { numRuns: 2000 },
    );
  });

  it('lists clocks in the order JavaScript lists the keys: whole numbers rising, then the rest as written', () => {
    const [s] = parseSteps({ '0': { fen: START, dices: [], leftTime: JSON.parse('{"b":1,"10193":2,"-49":3,"7":4,"__proto__":5}') } }, 'g', new Set());
    expect(s.leftTime).toEqual({ keys: ['7', '10193', 'b', '-49'], ms: [4, 2, 1, 3] });
    expect(inPropertyOrder(['b', '10193', '-49', '7', '4294967295', '4294967294'], [1, 2, 3, 4, 5, 6])).toEqual({
      keys: ['7', '10193', '4294967294', 'b', '-49', '4294967295'],
      ms: [4, 2, 6, 1, 3, 5],
    });
    expect(Object.keys(JSON.parse('{"b":1,"10193":2,"-49":3,"7":4,"4294967295":5,"4294967294":6}'))).toEqual(['7', '10193', '4294967294', 'b', '-49', '4294967295']);
  });

  it('takes an empty dice list before the first roll', () => {
    const [s] = parseSteps({ '0': { fen: START, dices: [], gameMoveHistoryMove: null } }, 'g', new Set());
    expect(s.dice).toEqual([]);
    expect(s.bank).toBeNull();
    expect(s.leftTime).toBeNull();
  });

  it('reads upper-case squares as lower-case UCI, with promotion names', () => {
    const notes = new Set<string>();
    expect(moveOf('B1', 'C3', 'NONE', 1, 'w', notes)).toBe('b1c3');
    expect(notes.has('squares:upper-case')).toBe(true);
    expect(moveOf('E7', 'E8', 'WHITE_QUEEN', 1, 'w', new Set())).toBe('e7e8q');
    expect(moveOf('D2', 'C1', 'BLACK_KNIGHT', 1, 'w', new Set())).toBe('d2c1n');
    expect(moveOf('A7', 'A8', 'ROOK', 1, 'w', new Set())).toBe('a7a8r');
  });

  it('refuses bad steps with the step named', () => {
    expect(problemOf(() => parseSteps({}, 'g', new Set()))).toMatchObject({ code: 'record.missing-field' });
    expect(problemOf(() => parseSteps({ first: { fen: START } }, 'g', new Set()))).toMatchObject({ code: 'record.bad-field', location: 'g#step first' });
    expect(problemOf(() => parseSteps({ '0': 'x' }, 'g', new Set()))).toMatchObject({ code: 'record.bad-field', location: stepWhere('g', 0) });
    expect(problemOf(() => parseSteps({ '0': { fen: START, dices: [die('X')] } }, 'g', new Set()))).toMatchObject({ code: 'record.bad-dice', location: 'g#step 0' });
    expect(problemOf(() => parseSteps({ '0': { fen: START, dices: [{ value: 'P', used: false }] } }, 'g', new Set()))).toMatchObject({ code: 'record.missing-field' });
    expect(problemOf(() => parseSteps({ '0': { fen: START, dices: 'PNB' } }, 'g', new Set()))).toMatchObject({ code: 'record.bad-field' });
    expect(problemOf(() => parseSteps({ '3': { fen: 'not a fen', dices: [] } }, 'g', new Set()))?.location).toBe('g#step 3');
    expect(problemOf(() => parseSteps({ '0': { fen: START, dices: [], bank: 'lots' } }, 'g', new Set()))).toMatchObject({ code: 'record.bad-field' });
    expect(problemOf(() => parseSteps({ '0': { fen: START, dices: [], leftTime: { a: null } } }, 'g', new Set()))).toMatchObject({ code: 'record.bad-field' });
    expect(problemOf(() => moveOf('E2', 'E2', 'NONE', 4, 'w', new Set()))).toMatchObject({ code: 'record.bad-move' });
    expect(problemOf(() => moveOf('E9', 'E4', 'NONE', 4, 'w', new Set()))).toMatchObject({ code: 'record.bad-move' });
    expect(problemOf(() => moveOf('E7', 'E8', 'WHITE_KING', 4, 'w', new Set()))).toMatchObject({ code: 'record.bad-move' });
  });
});
