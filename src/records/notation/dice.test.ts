import { describe, expect, it } from 'vitest';
import { parseDice } from './dice.js';
import { RecordProblem } from '../problems.js';

const read = (value: unknown, side: 'w' | 'b' | null = 'w', rollOrder = false) => {
  const notes = new Set<string>();
  try {
    return { ...parseDice(value, side, notes, rollOrder), notes: [...notes].sort() };
  } catch (e) {
    if (e instanceof RecordProblem) return { code: e.problem.code, message: e.problem.message };
    throw e;
  }
};

describe('dice in the encodings the sources use', () => {
  it('reads the core\'s letters in any case and order, and notes the encoding', () => {
    expect(read('PNB')).toEqual({ dice: [1, 2, 3], order: 'sorted', notes: ['dice:letters', 'dice:letters-value-order'] });
    expect(read('BKN')).toEqual({ dice: [3, 6, 2], order: 'sorted', notes: ['dice:letters', 'dice:letters-alphabetical'] });
    expect(read('qp', 'b')).toEqual({ dice: [5, 1], order: 'roll', notes: ['dice:letters'] });
    expect(read(['R', 'K'], 'b')).toEqual({ dice: [4, 6], order: 'sorted', notes: ['dice:letters', 'dice:letters-value-order', 'dice:upper-case-for-black'] });
  });

  it('reads ints and digits', () => {
    expect(read([3, 1])).toEqual({ dice: [3, 1], order: 'roll', notes: ['dice:ints'] });
    expect(read('125')).toEqual({ dice: [1, 2, 5], order: 'unknown', notes: ['dice:digits'] });
  });

  it('refuses what is not a die, a space among them', () => {
    expect(read([' '])).toEqual({ code: 'record.bad-dice', message: '" " is not a die (1–6 or a piece letter P N B R Q K)' });
    expect(read('PX')).toEqual({ code: 'record.bad-dice', message: '"X" is not a die (1–6 or a piece letter P N B R Q K)' });
    expect(read([1, 'P'])).toEqual({ code: 'record.bad-dice', message: 'dice a list mix ints and letters' });
  });
});
