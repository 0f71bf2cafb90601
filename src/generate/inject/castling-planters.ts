import { generateCastling, type Move } from '../../core/index.js';
import { DicePool } from '../../rules/index.js';
import type { PlanterDef } from './planter.js';
import { clone, cutAfter, expected, shuffled, stateAt, uciOf } from './planter-tools.js';

/** Planters for castling without the dice it needs (one planter per dialect's castling rule id). */

export function castlingPlanter(rule: 'castling.needs-king-and-rook-dice' | 'castling.dice'): PlanterDef {
  return {
    rule,
    variants: ['missing-die'],
    impossible(rules) {
      if (rules.dice.count === 0 || rules.castling.dice === 'none') return 'castling needs no die in this dialect';
      if ((rules.castling.dice === 'king-and-rook') !== (rule === 'castling.needs-king-and-rook-dice')) {
        return rule === 'castling.dice' ? 'castling needs a king and a rook die here: plant castling.needs-king-and-rook-dice' : `castling needs ${rules.castling.dice} dice here: plant castling.dice`;
      }
      return null;
    },
    *candidates(unit, pc) {
      const rules = pc.ctx.rules;
      for (const i of shuffled(unit.record.turns.length, pc.prng)) {
        const roles = unit.trace[i].roles;
        const pool = DicePool.of(roles);
        if (pc.ctx.engine.micro.castlingPaid(pool)) continue;
        const state = stateAt(pc, unit, i);
        const out: Move[] = [];
        const n = generateCastling(state.pos, state.pos.turn, rules.castling.attacks === 'orthodox', out, 0);
        if (n === 0) continue;
        const m = out[pc.prng.nextInt(n)];
        const c = clone(unit);
        c.record.turns[i].moves = [uciOf(pc, m)];
        cutAfter(c.record, i + 1);
        yield { record: c.record, expected: expected(rule, i + 1, 0, `castling with dice ${roles.join('')}`) };
      }
    },
  };
}
