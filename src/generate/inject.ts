import { createHash } from 'node:crypto';
import {
  ALL_ROLES,
  CASTLE,
  type Color,
  encodeMove,
  EN_PASSANT,
  generateCastling,
  generateMoves,
  generatePieceMoves,
  type GenOptions,
  KING,
  KNIGHT,
  type Move,
  moveKind,
  movePromotion,
  moveTo,
  PAWN,
  type Position,
  QUEEN,
  ROOK,
  STANDARD_PROMOTIONS,
  uciToMove,
} from '../core/index.js';
import { type Prng, rollD6, rollFair } from '../dice/index.js';
import type { FormatName, GameRecord } from '../records/game-record.js';
import { DicePool, GameState, isRuleId, type RuleId, type Rules } from '../rules/index.js';
import type { PreparedDialect } from '../replay/replay-game.js';
import type { ExpectedFinding } from './answer-key.js';
import { firstFindingAfterRoundTrip } from './round-trip.js';
import type { DialectContext, TurnTrace } from './self-play.js';
import { TurnWalker } from '../rules/turn-walker.js';

/**
 * Planted divergences. A planter edits a legal game at a chosen turn so that the FIRST
 * finding the replayer reports is exactly the keyed (turn, micro-move, rule). Every
 * candidate is checked by writing it in the target format, reading it back with the
 * records reader and replaying it with the real replayer: the answer key is right by
 * construction. When a game offers no candidate that checks out, the caller re-picks.
 */

/** What the planters work on: a record and, per turn, the position before it. */
export interface GameUnit {
  record: GameRecord;
  trace: TurnTrace[];
}

export interface Plant {
  record: GameRecord;
  expected: ExpectedFinding;
}

export interface PlantContext {
  ctx: DialectContext;
  format: FormatName;
  prng: Prng;
}

interface PlanterDef {
  rule: RuleId;
  variants: readonly string[];
  /** Why this rule cannot be planted at all under this dialect and format (null: it can). */
  impossible(rules: Rules, format: FormatName): string | null;
  candidates(unit: GameUnit, pc: PlantContext, variant: string): Generator<Plant>;
}

/** A requested planting: `--inject RULE[/VARIANT]:RATE`. */
export interface InjectSpec {
  /** As written, e.g. `maximum.fewer-dice/move-order`. */
  name: string;
  rule: RuleId;
  /** null: any variant of the rule, chosen per game. */
  variant: string | null;
  rate: number;
}

const GEOMETRY: GenOptions = { roles: ALL_ROLES, enPassant: true, promotions: STANDARD_PROMOTIONS, castling: false, castlingOrthodox: false };

const FAIRNESS_FORMATS: readonly FormatName[] = ['history', 'ndjson'];
const FLAG_FORMATS: readonly FormatName[] = ['dicechess-com', 'ndjson'];
const RESULT_FORMATS: readonly FormatName[] = ['ingest-wire', 'history', 'csv', 'ndjson'];

const eachDie = (r: Rules): boolean => r.turn.structure === 'each-die' && r.dice.count > 0;

// ---- helpers ---------------------------------------------------------------------------

function clone(unit: GameUnit): GameUnit {
  return { record: structuredClone(unit.record), trace: unit.trace };
}

/** The game state before turn index i (0-based), from the recorded position. */
function stateAt(pc: PlantContext, unit: GameUnit, i: number): GameState {
  const s = GameState.start(pc.ctx.engine, unit.trace[i].fenBefore);
  if (!s.ok) throw new Error(`inject: cannot re-read ${unit.trace[i].fenBefore}`);
  return s.value;
}

function shuffled(n: number, prng: Prng): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = prng.nextInt(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Ends the record just after the planted turn k: it keeps turn k+1 when there is one
 * (a last turn may be partial after a resignation, so the planted turn must not be the
 * last), and the player to move after that resigns. The replayer stops at the planted
 * finding, so nothing after it is judged. A planted turn that stays last is caught by
 * the round-trip check and another candidate is tried.
 */
function cutAfter(record: GameRecord, k: number): void {
  const keep = Math.min(k + 1, record.turns.length);
  record.turns.length = keep;
  record.events = record.events.filter((e) => e.turn < keep || (e.turn === keep && e.microMove === null && !e.type.startsWith('DOUBLE_DECLINE')));
  const lastMover = record.turns[keep - 1].side;
  record.result = lastMover === 'w' ? 'white' : 'black';
  record.termination = 'resign';
}

const uciOf = (pc: PlantContext, m: Move): string => pc.ctx.engine.uci(m);

/** Does the turn capture a king (replaying it on its position)? */
function turnCapturesKing(pc: PlantContext, unit: GameUnit, i: number): boolean {
  const pos = stateAt(pc, unit, i).pos;
  for (const u of unit.record.turns[i].moves) {
    const m = uciToMove(pos, u);
    if (!m.ok) return false;
    if (pc.ctx.engine.micro.capturesKing(pos, m.value)) return true;
    pos.make(m.value);
  }
  return false;
}

function expected(rule: RuleId, turn: number | null, microMove: number | null, note: string): ExpectedFinding {
  return { rule, turn, microMove, note };
}

// ---- planters ----------------------------------------------------------------------------

const enPassantWindow: PlanterDef = {
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

function castlingPlanter(rule: 'castling.needs-king-and-rook-dice' | 'castling.dice'): PlanterDef {
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

const fewerDice: PlanterDef = {
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

const moveAfterKingCapture: PlanterDef = {
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

/** A random pseudo-legal, non-castling move of `color` by a piece of the roles in `roles` (bit set). */
function anyMove(pos: Position, color: Color, roles: number, prng: Prng): Move | null {
  const out: Move[] = [];
  const n = generateMoves(pos, color, { ...GEOMETRY, roles }, out, 0);
  return n === 0 ? null : out[prng.nextInt(n)];
}

const promotionNotAllowed: PlanterDef = {
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

const notDerived: PlanterDef = {
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

const commitMismatch: PlanterDef = {
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

const allowedFlag: PlanterDef = {
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

const resultMismatch: PlanterDef = {
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

const passNotAllowed: PlanterDef = {
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

const pieceNotRolled: PlanterDef = {
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

const notPseudoLegal: PlanterDef = {
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

/** Every plantable rule id. */
export const PLANTERS: Readonly<Record<string, PlanterDef>> = Object.fromEntries(
  [
    enPassantWindow,
    castlingPlanter('castling.needs-king-and-rook-dice'),
    castlingPlanter('castling.dice'),
    fewerDice,
    moveAfterKingCapture,
    promotionNotAllowed,
    notDerived,
    commitMismatch,
    allowedFlag,
    resultMismatch,
    passNotAllowed,
    pieceNotRolled,
    notPseudoLegal,
  ].map((p) => [p.rule, p]),
);

/** `RULE[/VARIANT]:RATE` → a spec, or an error sentence. */
export function parseInject(text: string): InjectSpec | string {
  const m = /^([a-z0-9.-]+)(?:\/([a-z0-9-]+))?:([0-9.eE+-]+)$/.exec(text.trim());
  if (!m) return `--inject "${text}": expected RULE:RATE or RULE/VARIANT:RATE, e.g. maximum.fewer-dice:0.05`;
  const [, rule, variant, rateText] = m;
  const rate = Number(rateText);
  if (!isRuleId(rule)) return `--inject "${text}": "${rule}" is not a rule id`;
  const def = PLANTERS[rule];
  if (!def) return `--inject "${text}": no planter for ${rule} (plantable: ${Object.keys(PLANTERS).join(', ')})`;
  if (variant !== undefined && !def.variants.includes(variant)) return `--inject "${text}": ${rule} has variants ${def.variants.join(', ')}`;
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1) return `--inject "${text}": the rate must be in (0, 1]`;
  return { name: variant ? `${rule}/${variant}` : rule, rule, variant: variant ?? null, rate };
}

/** Why a spec cannot be planted at all under this dialect and format, or null. */
export function injectProblem(spec: InjectSpec, rules: Rules, format: FormatName): string | null {
  const def = PLANTERS[spec.rule];
  const why = def.impossible(rules, format);
  if (why) return why;
  if (spec.variant === 'later-micro-move' && !(eachDie(rules) && rules.enPassant.window === 'first-micro-move')) {
    return 'en passant on a later micro-move is legal here (enPassant.window is reply-turn); use --set enPassant.window=first-micro-move or the "expired" variant';
  }
  return null;
}

/** Chooses which spec (if any) a unit gets: one uniform draw against the cumulative rates. */
export function chooseInjection(specs: readonly InjectSpec[], prng: Prng): InjectSpec | null {
  const x = prng.next();
  let acc = 0;
  for (const s of specs) {
    acc += s.rate;
    if (x < acc) return s;
  }
  return null;
}

const MAX_CANDIDATES = 8;

/**
 * Plants `spec` in a unit: tries candidates until one round-trips through the format
 * and replays with exactly the expected first finding. Null when none does.
 */
export async function plant(unit: GameUnit, spec: InjectSpec, pc: PlantContext, judge: PreparedDialect): Promise<Plant | null> {
  const def = PLANTERS[spec.rule];
  const variants = spec.variant ? [spec.variant] : shuffled(def.variants.length, pc.prng).map((i) => def.variants[i]);
  for (const variant of variants) {
    let tried = 0;
    for (const cand of def.candidates(unit, pc, variant)) {
      if (++tried > MAX_CANDIDATES) break;
      const got = await firstFindingAfterRoundTrip(pc.format, cand.record, judge);
      if (!('finding' in got) || got.finding === null) continue;
      const f = got.finding;
      if (f.rule === cand.expected.rule && f.turn === cand.expected.turn && f.microMove === cand.expected.microMove) return cand;
    }
  }
  return null;
}

