import { EN_PASSANT, encodeMove, generatePieceMoves, KING, type Move, movePromotion, moveTo, PAWN } from '../../core/index.js';
import { DicePool } from '../../rules/index.js';
import { TurnWalker } from '../../rules/turn-walker.js';
import type { PlanterDef } from './planter.js';
import { clone, cutAfter, eachDie, expected, GEOMETRY, shuffled, stateAt, uciOf } from './planter-tools.js';

/** Planters for the pawn's special moves: en passant out of its window, promotion to a piece the dice do not allow. */

export const enPassantWindow: PlanterDef = {
  rule: 'en-passant.window',
  variants: ['later-micro-move', 'expired'],
  impossible: () => null,
  *candidates(unit, pc, variant) {
    const rules = pc.ctx.rules;
    const later = variant === 'later-micro-move';
    if (later && !(eachDie(rules) && rules.enPassant.window === 'first-micro-move')) return;
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const state = stateAt(pc, unit, i);
      const pos = state.pos;
      const color = pos.turn;
      const dir = color === 0 ? 8 : -8;
      const pawn = color === 0 ? PAWN : -PAWN;
      if (later) {
        const live = pos.ep & (color === 0 ? 0xff00 : 0x00ff);
        if (!live || unit.trace[i].roles.length < 2) continue;
        const walker = new TurnWalker(pc.ctx.engine);
        walker.begin(pos, unit.trace[i].roles);
        const firsts = walker.legalSteps();
        for (let f = 0; f < 8; f++) {
          if (!(live & (1 << (f + (color === 0 ? 8 : 0))))) continue;
          const target = (color === 0 ? 40 : 16) + f;
          for (const df of [-1, 1]) {
            if (f + df < 0 || f + df > 7) continue;
            const from = target - dir + df;
            if (pos.board[from] !== pawn) continue;
            const ep = encodeMove(from, target, 0, EN_PASSANT);
            for (const x of firsts) {
              if (pc.ctx.engine.micro.capturesKing(pos, x)) continue;
              pos.make(x);
              const still = pos.board[from] === pawn && pos.board[target - dir] === -pawn && pos.board[target] === 0 && (pos.ep & (1 << (f + (color === 0 ? 8 : 0)))) !== 0;
              pos.unmake(x);
              if (!still) continue;
              const c = clone(unit);
              c.record.turns[i].moves = [uciOf(pc, x), uciOf(pc, ep)];
              cutAfter(c.record, i + 1);
              yield { record: c.record, expected: expected('en-passant.window', i + 1, 1, 'en passant on the second micro-move of the reply turn') };
              break;
            }
          }
        }
      } else {
        for (let sq = 0; sq < 64; sq++) {
          if (pos.board[sq] !== pawn || sq >> 3 !== (color === 0 ? 4 : 3)) continue;
          for (const df of [-1, 1]) {
            const f = (sq & 7) + df;
            if (f < 0 || f > 7) continue;
            const victim = sq + df;
            const target = victim + dir;
            const bit = 1 << (f + (color === 0 ? 8 : 0));
            if (pos.board[victim] !== -pawn || pos.board[target] !== 0 || (pos.ep & bit) !== 0) continue;
            const c = clone(unit);
            c.record.turns[i].moves = [uciOf(pc, encodeMove(sq, target, 0, EN_PASSANT))];
            cutAfter(c.record, i + 1);
            yield { record: c.record, expected: expected('en-passant.window', i + 1, 0, 'en passant on a pawn whose double step is not the last one (the window is over)') };
          }
        }
      }
    }
  },
};

export const promotionNotAllowed: PlanterDef = {
  rule: 'promotion.not-allowed',
  variants: ['wrong-piece'],
  impossible(rules) {
    if (rules.promotion.die === 'die-piece' || rules.promotion.pieces.length < 4) return null;
    return 'this dialect allows every promotion piece with any die that may promote';
  },
  *candidates(unit, pc) {
    const rules = pc.ctx.rules;
    const allowed = new Set<number>(rules.promotion.pieces.map((p) => ' pnbrqk'.indexOf(p)));
    for (const i of shuffled(unit.record.turns.length, pc.prng)) {
      const state = stateAt(pc, unit, i);
      const pos = state.pos;
      const roles = unit.trace[i].roles;
      const pool = DicePool.of(roles);
      const buf: Move[] = [];
      const n = pc.ctx.engine.micro.generate(pos, pool, 0, buf);
      const candidates = buf.slice(0, n);
      // Pawn moves to the last rank, geometrically.
      const color = pos.turn;
      for (let sq = color === 0 ? 48 : 8, end = sq + 8; sq < end; sq++) {
        if (pos.board[sq] !== (color === 0 ? PAWN : -PAWN)) continue;
        const geo: Move[] = [];
        const g = generatePieceMoves(pos, sq, GEOMETRY, geo, 0);
        for (let k = 0; k < g; k++) {
          const m = geo[k];
          const promo = movePromotion(m);
          if (!promo || candidates.includes(m)) continue;
          const victim = pos.board[moveTo(m)];
          if (victim === KING || victim === -KING) continue;
          const pathHasLegal = candidates.some((x) => (x & 0x0fff) === (m & 0x0fff));
          const forbiddenPiece = !allowed.has(promo) && pool.has(PAWN);
          const wrongDie = rules.promotion.die === 'die-piece' && allowed.has(promo) && pathHasLegal;
          if (!forbiddenPiece && !wrongDie) continue;
          const c = clone(unit);
          c.record.turns[i].moves = [uciOf(pc, m)];
          cutAfter(c.record, i + 1);
          yield { record: c.record, expected: expected('promotion.not-allowed', i + 1, 0, `promotion "${uciOf(pc, m)}" with dice ${roles.join('')}`) };
        }
      }
    }
  },
};
