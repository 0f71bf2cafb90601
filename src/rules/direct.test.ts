import { describe, expect, it } from 'vitest';
import { judgeTurn, legalFirstMoves } from '../api/rules.js';
import { parseDfen, type Role, uciMove } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import type { Dialect } from '../dialects/resolve.js';
import { DicePool } from './dice-pool.js';
import { MicroMoves } from './micro-moves.js';
import { TurnEngine } from './turn-engine.js';

/**
 * Behaviour of micro-moves.ts (what a die allows and costs), spendable-dice.ts (the
 * per-die flags) and classify.ts (which rule an illegal micro-move breaks), each expectation
 * written from docs/rules.md, not from the code's output.
 */
const dialect = (name: string, overrides: string[] = []): Dialect => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(`${name}: ${d.error.map((p) => p.message).join('; ')}`);
  return d.value;
};
const P = 1, N = 2, B = 3, R = 4, Q = 5, K = 6;
const read = (dfen: string) => {
  const r = parseDfen(dfen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.pos;
};

describe('micro-moves: what a die allows and what it costs (docs/rules.md §2, §12.1)', () => {
  const castle = '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1';
  it.each([
    ['king-and-rook', [K, R], [K, R], true],
    ['king-and-rook', [K, N], [], false],
    ['king', [K], [K], true],
    ['rook', [R], [R], true],
    ['rook', [K], [], false],
    ['king-or-rook', [R, N], [R], true],
    ['king-or-rook', [K, R], [K], true],
  ] as const)('castling.dice %s with dice %j: spends %j when allowed (%s)', (dice, roll, spends, allowed) => {
    const m = new MicroMoves(dialect('reference', [`castling.dice=${dice}`]).rules);
    const pos = read(castle);
    const pool = DicePool.of([...roll] as Role[]);
    const move = uciMove(pos, 'e1g1');
    expect(m.allows(pos, pool, 0, move)).toBe(allowed);
    if (allowed) {
      const spent: number[] = [];
      m.cost(pos, move, spent, pool);
      expect(spent).toEqual([...spends]);
    }
  });

  it('en passant: on any micro-move of the reply turn, or only the first (enPassant.window)', () => {
    const dfen = '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 PP';
    const pos = read(dfen);
    const ep = uciMove(pos, 'e5d6');
    for (const [window, second] of [['reply-turn', true], ['first-micro-move', false]] as const) {
      const m = new MicroMoves(dialect('reference', [`enPassant.window=${window}`]).rules);
      expect(m.allows(pos, DicePool.of([P, P]), 0, ep)).toBe(true);
      expect(m.allows(pos, DicePool.of([P]), 1, ep)).toBe(second);
    }
  });

  it('BrainKing promotion: a pawn reaches the last rank on the die of the piece it becomes, any piece on a pawn die, not on a king die by default', () => {
    const rules = dialect('brainking-one-die').rules;
    const m = new MicroMoves(rules);
    const pos = read('4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
    expect(m.allows(pos, DicePool.of([N]), 0, uciMove(pos, 'a7a8n'))).toBe(true);
    expect(m.allows(pos, DicePool.of([N]), 0, uciMove(pos, 'a7a8q'))).toBe(false);
    expect(m.allows(pos, DicePool.of([P]), 0, uciMove(pos, 'a7a8r'))).toBe(true);
    expect(m.allows(pos, DicePool.of([K]), 0, uciMove(pos, 'a7a8q'))).toBe(false);
    expect(new MicroMoves(dialect('brainking-one-die', ['promotion.onKingDie=true']).rules).allows(pos, DicePool.of([K]), 0, uciMove(pos, 'a7a8q'))).toBe(true);
  });

  it('a king capture is recognised, castling never is one', () => {
    const m = new MicroMoves(dialect('reference').rules);
    const pos = read('4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1');
    expect(m.capturesKing(pos, uciMove(pos, 'a1a8'))).toBe(false);
    const pos2 = read('R3k3/8/8/8/8/8/8/4K3 w - - 0 1');
    expect(m.capturesKing(pos2, uciMove(pos2, 'a8e8'))).toBe(true);
  });
});

describe('spendable dice: per die type, the most dice of it some legal turn spends (the sites\' allowed flags)', () => {
  const flags = (name: string, dfen: string): number[] => {
    const r = parseDfen(dfen);
    if (!r.ok) throw new Error(r.error.message);
    const engine = new TurnEngine(dialect(name).rules);
    return [...engine.spendableDice(r.value.pos, r.value.dice!)].slice(1);
  };
  it('opening P, N, B: every die can be spent (a pawn frees the bishop) — docs/rules.md §10.2', () => {
    expect(flags('reference', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB')).toEqual([1, 1, 1, 0, 0, 0]);
  });
  it('opening B, R, Q: a forced pass, nothing spendable', () => {
    expect(flags('reference', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 BRQ')).toEqual([0, 0, 0, 0, 0, 0]);
  });
  it('two knight dice with one knight move possible: one knight die spendable — the worked position of §10.1', () => {
    // path: [a2a3] [a2a4] [e7e8q] [e7e8r] [e7e8b] [e7e8n, e8g7]: one pawn die, one knight die at most.
    expect(flags('reference', '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN')).toEqual([1, 1, 0, 0, 0, 0]);
  });
});

describe('classify: which rule an illegal micro-move breaks (rule ids)', () => {
  const rule = (name: string, dfen: string, turn: string, overrides: string[] = []): string => {
    const v = judgeTurn(dialect(name, overrides), dfen, turn);
    if (!v.ok) throw new Error(v.error.message);
    return v.value.legal ? 'legal' : v.value.rule;
  };
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  it('a piece type no die shows: dice.piece-not-rolled', () => {
    expect(rule('reference', `${start} PPN`, 'e2e4,d2d4,c1e3')).toBe('dice.piece-not-rolled');
  });
  it('a move the piece cannot make: move.not-pseudo-legal', () => {
    expect(rule('reference', `${start} PPN`, 'e2e5')).toBe('move.not-pseudo-legal');
  });
  it('castling on a king die alone where it needs king and rook: castling.needs-king-and-rook-dice', () => {
    expect(rule('reference', '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 KNN', 'e1g1')).toBe('castling.needs-king-and-rook-dice');
  });
  it('castling without the right: castling.rights', () => {
    expect(rule('reference', '4k3/8/8/8/8/8/8/R3K2R w Q - 0 1 KRP', 'e1g1')).toBe('castling.rights');
  });
  it('en passant on the second micro-move under first-micro-move: en-passant.window', () => {
    expect(rule('reference', '4k3/8/8/3pP3/8/8/P7/4K3 w - d6 0 1 PP', 'a2a3,e5d6', ['enPassant.window=first-micro-move'])).toBe('en-passant.window');
  });
  it('a promotion piece the dialect does not list: promotion.not-allowed', () => {
    expect(rule('reference', '4k3/P7/8/8/8/8/8/4K3 w - - 0 1 P', 'a7a8n', ['promotion.pieces=["q"]'])).toBe('promotion.not-allowed');
  });
  it('a pass while a micro-move can be played: pass.not-allowed', () => {
    expect(rule('reference', `${start} PPN`, 'pass')).toBe('pass.not-allowed');
  });
  it('a move after the king was taken: end.move-after-king-capture', () => {
    expect(rule('reference', 'R3k3/8/8/8/8/8/P7/4K3 w - - 0 1 RPP', 'a8e8,a2a3')).toBe('end.move-after-king-capture');
  });
  it('a move into check in a check dialect: check.leaves-king-attacked', () => {
    expect(rule('wikipedia-two-dice', '4k3/8/8/8/8/8/3r4/4K3 w - - 0 1 KN', 'e1f1')).toBe('legal');
    expect(rule('wikipedia-two-dice', '4k3/8/8/8/8/8/4r3/3K4 w - - 0 1 KN', 'd1e1')).toBe('check.leaves-king-attacked');
  });
  it('fewer dice than the position allows: maximum.fewer-dice', () => {
    expect(rule('reference', `${start} PNB`, 'a2a3,b1c3')).toBe('maximum.fewer-dice');
    expect(legalFirstMoves(dialect('reference'), `${start} PNB`).ok).toBe(true);
  });
});
