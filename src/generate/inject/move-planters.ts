import { encodeMove, generatePieceMoves, KNIGHT, type Move, moveTo, QUEEN, ROOK } from '../../core/index.js';
import { TurnWalker } from '../../rules/turn-walker.js';
import type { PlanterDef } from './planter.js';
import { clone, cutAfter, eachDie, expected, GEOMETRY, shuffled, stateAt, turnCapturesKing, uciOf } from './planter-tools.js';

/** Planters for what a turn plays: fewer dice than the maximum, a pass that could move, a move no piece makes. */

export const fewerDice: PlanterDef = {
  rule: 'maximum.fewer-dice',
  variants: ['short-turn', 'move-order'],
  impossible: (rules) => (!eachDie(rules) || rules.maximum === 'none' ? 'this dialect has no maximum rule counted in dice' : null),
  *candidates(unit, pc, variant) {
    const turns = unit.record.turns;
    for (const i of shuffled(turns.length, pc.prng)) {
      const t = turns[i];
      if (variant === 'short-turn') {
        if (t.moves.length < 2 || turnCapturesKing(pc, unit, i)) continue;
        const keep = 1 + pc.prng.nextInt(t.moves.length - 1);
        const c = clone(unit);
        c.record.turns[i].moves = t.moves.slice(0, keep);
        cutAfter(c.record, i + 1);
        yield { record: c.record, expected: expected('maximum.fewer-dice', i + 1, keep, `the turn stops after ${keep} of ${t.moves.length} micro-moves`) };
      } else {
        if (unit.trace[i].roles.length < 2) continue;
        const state = stateAt(pc, unit, i);
        const walker = new TurnWalker(pc.ctx.engine);
        walker.begin(state.pos, unit.trace[i].roles);
        const bad = walker.candidates().filter((m) => !pc.ctx.engine.micro.capturesKing(state.pos, m) && !walker.isLegal(m));
        if (bad.length === 0) continue;
        const x = bad[pc.prng.nextInt(bad.length)];
        walker.play(x);
        // Finish the turn with whatever can still be played, never capturing the king (always legal).
        for (;;) {
          const next = walker.candidates().filter((m) => !pc.ctx.engine.micro.capturesKing(walker.position, m));
          if (next.length === 0) break;
          walker.play(next[pc.prng.nextInt(next.length)]);
        }
        if (walker.candidates().length > 0) continue; // only king captures left: that would be legal
        const moves = walker.moves.map((m) => uciOf(pc, m));
        const c = clone(unit);
        c.record.turns[i].moves = moves;
        cutAfter(c.record, i + 1);
        yield { record: c.record, expected: expected('maximum.fewer-dice', i + 1, 0, `"${moves[0]}" first forecloses a die`) };
      }
    }
  },
};

export const passNotAllowed: PlanterDef = {
  rule: 'pass.not-allowed',
  variants: ['empty-turn'],
  impossible: () => null,
  *candidates(unit, pc) {
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      if (unit.record.turns[i].moves.length === 0) continue;
      const c = clone(unit);
      c.record.turns[i].moves = [];
      cutAfter(c.record, i + 1);
      yield { record: c.record, expected: expected('pass.not-allowed', i + 1, 0, 'a playable turn recorded as a pass') };
    }
  },
};

export const notPseudoLegal: PlanterDef = {
  rule: 'move.not-pseudo-legal',
  variants: ['bad-geometry'],
  impossible: () => null,
  *candidates(unit, pc) {
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const state = stateAt(pc, unit, i);
      const pos = state.pos;
      const color = pos.turn;
      const pieces: number[] = [];
      for (let sq = 0; sq < 64; sq++) {
        const p = pos.board[sq];
        if (p !== 0 && (p > 0 ? 0 : 1) === color && [KNIGHT, 3, ROOK, QUEEN].includes(p > 0 ? p : -p)) pieces.push(sq);
      }
      if (pieces.length === 0) continue;
      const from = pieces[pc.prng.nextInt(pieces.length)];
      const geo: Move[] = [];
      const g = generatePieceMoves(pos, from, GEOMETRY, geo, 0);
      const reach = new Set(geo.slice(0, g).map((m) => moveTo(m)));
      const targets: number[] = [];
      for (let to = 0; to < 64; to++) {
        const q = pos.board[to];
        if (to === from || reach.has(to) || (q !== 0 && (q > 0 ? 0 : 1) === color)) continue;
        targets.push(to);
      }
      if (targets.length === 0) continue;
      const m = encodeMove(from, targets[pc.prng.nextInt(targets.length)]);
      const c = clone(unit);
      c.record.turns[i].moves = [uciOf(pc, m)];
      cutAfter(c.record, i + 1);
      yield { record: c.record, expected: expected('move.not-pseudo-legal', i + 1, 0, `"${uciOf(pc, m)}" is not a move of that piece`) };
    }
  },
};
