import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { decide } from './method.js';
import { notCountedWhy, opportunityKind } from './opportunities/turn-tests.js';
import { defaultOptionPaths, planOption } from './options.js';

const dialect = (name: string) => {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(name);
  return d.value;
};

describe('candidate values from the schema', () => {
  it('enumerates enums, literals and booleans', () => {
    const ref = dialect('reference');
    const values = (arg: string) => {
      const p = planOption(arg, ref, []);
      if (!p.ok) throw new Error(p.error.message);
      return p.value.values;
    };
    expect(values('maximum')).toEqual(['path', 'path-all', 'micro-move', 'none']);
    expect(values('enPassant.window')).toEqual(['reply-turn', 'first-micro-move']);
    expect(values('draws.castlingCounts')).toEqual([1, 2]);
    expect(values('clock.passEarnsIncrement')).toEqual([false, true]);
  });

  it('takes null and the values the other dialects use for a nullable number', () => {
    const dc = dialect('dicechess-com');
    const p = planOption('draws.moveCounterLimit', dc, []);
    expect(p.ok && p.value.values).toEqual([null, 100]);
    const t = planOption('draws.turnLimit', dc, []);
    expect(t.ok && t.value.values).toEqual([null, 5000]);
  });

  it('leaves out values the base dialect cannot take, with the reason', () => {
    const p = planOption('draws.castlingCounts', dialect('brainking-one-die'), []);
    // Castling on one die cannot count as two moves: only the base value remains, nothing to infer.
    expect(p.ok).toBe(false);
    const m = planOption('maximum', dialect('wikipedia-two-dice'), []);
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.error.code).toBe('infer.no-candidates');
  });

  it('narrows with PATH=v1,v2 and always keeps the base value', () => {
    const p = planOption('maximum=micro-move,none', dialect('reference'), []);
    expect(p.ok && p.value.values).toEqual(['micro-move', 'none', 'path']);
    const bad = planOption('maximum=sideways', dialect('reference'), []);
    expect(!bad.ok && bad.error.code).toBe('infer.bad-value');
    const unknown = planOption('enPassant.windows', dialect('reference'), []);
    expect(!unknown.ok && unknown.error.code).toBe('infer.unknown-option');
  });

  it('defaults to the open options plus maximum, enPassant.window and (castling on two dice) maximumCounts', () => {
    expect(defaultOptionPaths(dialect('reference'))).toEqual(['maximum', 'maximumCounts', 'enPassant.window', 'draws.castlingCounts', 'clock.passEarnsIncrement']);
    const dc = defaultOptionPaths(dialect('dicechess-com'));
    expect(dc).toEqual(expect.arrayContaining(['maximum', 'enPassant.window', 'castling.attacks', 'draws.moveCounterLimit', 'draws.turnLimit', 'clock.increment', 'cube.cap']));
  });
});

describe('the method', () => {
  it('infers the value with the most conforming games when it has a decisive game and no tie', () => {
    expect(decide([{ conforming: 90, decisive: 3 }, { conforming: 87, decisive: 0 }], 1)).toMatchObject({ inferred: 0, consistent: [0], verdict: 'contradicted', mixed: false });
    expect(decide([{ conforming: 90, decisive: 3 }, { conforming: 87, decisive: 0 }], 0)).toMatchObject({ inferred: 0, verdict: 'supported' });
  });

  it('is undecided on a tie, listing the tied values as consistent', () => {
    expect(decide([{ conforming: 90, decisive: 0 }, { conforming: 90, decisive: 0 }, { conforming: 12, decisive: 0 }], 0)).toMatchObject({ inferred: null, consistent: [0, 1], verdict: 'undecided', why: 'tie' });
  });

  it('never infers from absence: the top value needs a decisive game', () => {
    // Three values: the top one is never alone, so no game is decisive for it.
    expect(decide([{ conforming: 90, decisive: 0 }, { conforming: 80, decisive: 0 }, { conforming: 85, decisive: 0 }], 0)).toMatchObject({ inferred: null, consistent: [0], why: 'no-decisive-game' });
    expect(decide([{ conforming: 0, decisive: 0 }, { conforming: 0, decisive: 0 }], 0)).toMatchObject({ inferred: null, why: 'no-games' });
  });

  it('flags a corpus in which several values have decisive games', () => {
    expect(decide([{ conforming: 60, decisive: 55 }, { conforming: 45, decisive: 40 }], 0)).toMatchObject({ inferred: 0, mixed: true });
  });
});

describe('opportunities of the default options', () => {
  it('every option dicechess-com infers by default counts opportunities, the cube ones included', () => {
    const paths = defaultOptionPaths(dialect('dicechess-com'));
    expect(paths).toEqual(expect.arrayContaining(['cube.ownership', 'cube.cap', 'cube.declineLoses', 'clock.increment', 'castling.attacks']));
    expect(paths.filter((p) => opportunityKind(p) === 'none')).toEqual([]);
    expect(opportunityKind('cube.ownership')).toBe('cube');
    expect(opportunityKind('cube.cap')).toBe('cube');
    expect(opportunityKind('cube.declineLoses')).toBe('decline');
  });

  it('across the shipped dialects, every default option counts opportunities', () => {
    const uncounted = new Set<string>();
    for (const name of ['reference', 'dicechess-com', 'beturanga', 'brainking-one-die', 'wikipedia-two-dice', 'chess', 'vchess-dice', 'gollon-count-die', 'gollon-piece-and-count', 'vegas-fun-chess']) {
      for (const p of defaultOptionPaths(dialect(name))) if (opportunityKind(p) === 'none') uncounted.add(p);
    }
    expect([...uncounted]).toEqual([]);
    // Draw agreement is an ending (an agreed draw the value allows at a turn end); the die-drawing rule counts rolls.
    expect(opportunityKind('draws.agreement')).toBe('outcome');
    expect(opportunityKind('dice.draw')).toBe('roll');
  });

  it("the readings of issue 27: maximumCounts is counted at turn starts and inferred by default where castling takes two dice; the roll and turn options of the new forms are judged when named and say their opportunities are not counted; enPassant.targetUnderPiece is judged when named and counted at turn starts", () => {
    expect(opportunityKind('maximumCounts')).toBe('turn');
    expect(defaultOptionPaths(dialect('dicechess-com'))).toContain('maximumCounts');
    // One die, castling on a king die: counting in moves changes nothing.
    expect(defaultOptionPaths(dialect('brainking-one-die'))).not.toContain('maximumCounts');
    // The die's test of "can move" is the dice's chance, counted at each roll like dice.draw.
    expect(opportunityKind('dice.movableTest')).toBe('roll');
    // Its values leave different positions: counted at each value's own turn starts (game-walk plays one game per value).
    expect(opportunityKind('enPassant.targetUnderPiece')).toBe('turn');
    expect(defaultOptionPaths(dialect('reference'))).not.toContain('enPassant.targetUnderPiece');
    for (const p of ['dice.facesByDie', 'dice.reads', 'dice.counts', 'dice.whoRolls', 'turn.onePiece', 'turn.firstMoveFree', 'pass.onFreeChoice', 'pass.whenCheckedBack']) {
      expect(opportunityKind(p), p).toBe('none');
      expect(notCountedWhy(p), p).not.toBe('it is judged on events or on the recorded end');
    }
    const ep = planOption('enPassant.targetUnderPiece', dialect('reference'), []);
    expect(ep.ok && ep.value.values).toEqual(['dies', 'survives']);
  });
});
