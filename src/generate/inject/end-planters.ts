import { ALL_ROLES, uciToMove } from '../../core/index.js';
import { rollD6, rollFair } from '../../dice/index.js';
import type { FormatName, GameRecord } from '../../records/model/game-record.js';
import { DicePool } from '../../rules/index.js';
import type { PlanterDef, PlantContext } from './planter.js';
import { anyMove, clone, eachDie, expected, stateAt, turnCapturesKing, uciOf } from './planter-tools.js';

/** Planters for the end of a game: moves after the king is captured, a recorded result the board contradicts. */

const RESULT_FORMATS: readonly FormatName[] = ['ingest-wire', 'history', 'csv', 'ndjson'];

export const moveAfterKingCapture: PlanterDef = {
  rule: 'end.move-after-king-capture',
  variants: ['same-turn', 'next-turn'],
  impossible: (rules, format) =>
    !rules.end.kingCapture ? 'kings are not captured in this dialect' : format === 'opening-book' ? 'an opening book holds no game-ending turns' : null,
  *candidates(unit, pc, variant) {
    const r = unit.record;
    const n = r.turns.length;
    if (n === 0 || !turnCapturesKing(pc, unit, n - 1)) return;
    const last = r.turns[n - 1];
    const state = stateAt(pc, unit, n - 1);
    const pos = state.pos;
    const pool = DicePool.of(unit.trace[n - 1].roles);
    for (const u of last.moves) {
      const m = uciToMove(pos, u);
      if (!m.ok) return;
      const spent: number[] = [];
      if (eachDie(pc.ctx.rules)) pc.ctx.engine.micro.cost(pos, m.value, spent);
      for (const x of spent) pool.take(x);
      pos.make(m.value);
    }
    if (variant === 'same-turn') {
      if (!eachDie(pc.ctx.rules) || pool.total === 0) return;
      const m = anyMove(pos, pos.turn, pool.roles(), pc.prng);
      if (m === null) return;
      const c = clone(unit);
      c.record.turns[n - 1].moves = [...last.moves, uciOf(pc, m)];
      yield { record: c.record, expected: expected('end.move-after-king-capture', n, last.moves.length, 'a micro-move after the capture, with a die left over') };
    } else {
      if (r.termination !== 'king_captured') return;
      pos.endTurn();
      const m = anyMove(pos, pos.turn, ALL_ROLES, pc.prng);
      const dice = diceForPly(pc, r, n);
      const c = clone(unit);
      c.record.turns.push({
        side: pos.turn === 0 ? 'w' : 'b',
        dice,
        diceOrder: 'roll',
        moves: m === null ? [] : [uciOf(pc, m)],
        fenAfter: null,
        clockMs: null,
        thinkingMs: null,
        diceFlags: null,
        location: null,
      });
      yield { record: c.record, expected: expected('end.move-after-king-capture', n + 1, null, 'a whole turn after the king was captured') };
    }
  },
};

/** Dice for an extra ply: from the revealed seeds when the game has them. */
function diceForPly(pc: PlantContext, r: GameRecord, ply: number): number[] {
  const rules = pc.ctx.rules;
  if (rules.dice.count === 0) return [];
  if (r.fairness) return rollFair(Buffer.from(r.fairness.serverSeed, 'hex'), r.fairness.clientSeeds.white, r.fairness.clientSeeds.black, ply, rules.dice.count);
  return rollD6(pc.prng, rules.dice.count);
}

export const resultMismatch: PlanterDef = {
  rule: 'end.result-mismatch',
  variants: ['wrong-winner'],
  impossible: (_rules, format) => (RESULT_FORMATS.includes(format) ? null : `format ${format} records no result the board could contradict`),
  *candidates(unit, pc) {
    const r = unit.record;
    const board = ['king_captured', 'checkmate', 'stalemate', 'draw_rule'];
    if (!board.includes(r.termination) || r.result === null || r.turns.length === 0) return;
    const others = (['white', 'black', 'draw'] as const).filter((x) => x !== r.result);
    const c = clone(unit);
    c.record.result = others[pc.prng.nextInt(others.length)];
    yield { record: c.record, expected: expected('end.result-mismatch', r.turns.length, null, `${r.termination} recorded as ${c.record.result}`) };
  },
};
