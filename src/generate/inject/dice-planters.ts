import { createHash } from 'node:crypto';
import { CASTLE, generateMoves, KNIGHT, type Move, moveKind, QUEEN, ROOK } from '../../core/index.js';
import type { FormatName } from '../../records/model/game-record.js';
import { DicePool } from '../../rules/index.js';
import type { PlanterDef } from './planter.js';
import { clone, cutAfter, expected, GEOMETRY, shuffled, stateAt, uciOf } from './planter-tools.js';

/** Planters for the dice: rolls that do not follow from the fairness seeds, a wrong commit, a flipped allowed flag, a piece no die names. */

const FAIRNESS_FORMATS: readonly FormatName[] = ['history', 'ndjson'];
const FLAG_FORMATS: readonly FormatName[] = ['dicechess-com', 'ndjson'];

export const notDerived: PlanterDef = {
  rule: 'dice.not-derived-from-seeds',
  variants: ['reordered'],
  impossible: (rules, format) =>
    rules.dice.draw !== 'provably-fair' ? 'this dialect reveals no fairness seeds' : FAIRNESS_FORMATS.includes(format) ? null : `format ${format} carries no fairness reveal (use history or ndjson)`,
  *candidates(unit, pc) {
    if (!unit.record.fairness) return;
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const t = unit.record.turns[i];
      if (new Set(t.dice).size < 2) continue;
      const c = clone(unit);
      const ct = c.record.turns[i];
      // Rotate until the order changes; flags travel with their dice.
      for (let s = 1; s < t.dice.length; s++) {
        const d = [...t.dice.slice(s), ...t.dice.slice(0, s)];
        if (d.join() === t.dice.join()) continue;
        ct.dice = d;
        if (t.diceFlags) ct.diceFlags = [...t.diceFlags.slice(s), ...t.diceFlags.slice(0, s)];
        break;
      }
      yield { record: c.record, expected: expected('dice.not-derived-from-seeds', i + 1, null, `dice ${t.dice.join('')} recorded as ${ct.dice.join('')}`) };
    }
  },
};

export const commitMismatch: PlanterDef = {
  rule: 'dice.commit-mismatch',
  variants: ['other-commit'],
  impossible: notDerived.impossible,
  *candidates(unit) {
    if (!unit.record.fairness) return;
    const c = clone(unit);
    const f = c.record.fairness!;
    f.commit = createHash('sha256').update(`not ${f.serverSeed}`).digest('hex');
    yield { record: c.record, expected: expected('dice.commit-mismatch', null, null, 'the commit is not the hash of the revealed seed') };
  },
};

export const allowedFlag: PlanterDef = {
  rule: 'dice.allowed-flag',
  variants: ['flipped'],
  impossible: (rules, format) =>
    rules.dice.count === 0 ? 'this dialect rolls no dice' : FLAG_FORMATS.includes(format) ? null : `format ${format} carries no per-die allowed flags (use dicechess-com or ndjson)`,
  *candidates(unit, pc) {
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const t = unit.record.turns[i];
      if (!t.diceFlags || t.diceFlags.length === 0) continue;
      const d = pc.prng.nextInt(t.diceFlags.length);
      const c = clone(unit);
      c.record.turns[i].diceFlags = t.diceFlags.map((f, k) => (k === d ? { ...f, allowed: !f.allowed } : { ...f }));
      yield { record: c.record, expected: expected('dice.allowed-flag', i + 1, null, `die ${d + 1} flagged allowed:${!t.diceFlags[d].allowed}`) };
    }
  },
};

export const pieceNotRolled: PlanterDef = {
  rule: 'dice.piece-not-rolled',
  variants: ['other-piece'],
  impossible: (rules) => (rules.dice.count === 0 ? 'this dialect rolls no dice' : null),
  *candidates(unit, pc) {
    const rules = pc.ctx.rules;
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const roles = unit.trace[i].roles;
      const pool = DicePool.of(roles);
      if (rules.turn.doublesAnyMove && pool.hasDoubles()) continue;
      const state = stateAt(pc, unit, i);
      const pos = state.pos;
      const buf: Move[] = [];
      if (pc.ctx.engine.micro.generate(pos, pool, 0, buf) === 0) continue;
      // Knights, bishops, rooks, queens without a die (no pawns: promotions and en passant have their own rules).
      let missing = 0;
      for (const r of [KNIGHT, 3, ROOK, QUEEN]) if (!pool.has(r)) missing |= 1 << r;
      const out: Move[] = [];
      const n = generateMoves(pos, pos.turn, { ...GEOMETRY, roles: missing }, out, 0);
      const moves = out.slice(0, n).filter((m) => moveKind(m) !== CASTLE && !pc.ctx.engine.micro.capturesKing(pos, m) && !(rules.check === 'orthodox' && pc.ctx.engine.micro.leavesKingAttacked(pos, m)));
      if (moves.length === 0) continue;
      const m = moves[pc.prng.nextInt(moves.length)];
      const c = clone(unit);
      c.record.turns[i].moves = [uciOf(pc, m)];
      cutAfter(c.record, i + 1);
      yield { record: c.record, expected: expected('dice.piece-not-rolled', i + 1, 0, `"${uciOf(pc, m)}" with dice ${roles.join('')}`) };
    }
  },
};
