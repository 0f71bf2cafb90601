import {
  ALL_ROLES,
  ANY_DIE,
  CASTLE,
  EN_PASSANT,
  type GenOptions,
  generateCastling,
  generatePieceMoves,
  type Move,
  moveFrom,
  moveKind,
  movePromotion,
  moveTo,
  KING,
  QUEEN,
  PAWN,
  type Position,
  ROLE_NAMES,
  STANDARD_PROMOTIONS,
  squareName,
  uciToMove,
} from '../core/index.js';
import { type DicePool, dieName } from './dice-pool.js';
import type { RuleId } from './rule-ids.js';
import type { TurnSearch } from './turn-search.js';

export type Classified = { ok: true; move: Move } | { ok: false; rule: RuleId; message: string };

const GEOMETRY: GenOptions = { roles: ALL_ROLES, enPassant: true, promotions: STANDARD_PROMOTIONS, castling: false, castlingOrthodox: false };

const fail = (rule: RuleId, message: string): Classified => ({ ok: false, rule, message });

/** Same move ignoring the promotion piece. */
const samePath = (a: Move, b: Move): boolean => (a & 0x0fff) === (b & 0x0fff);

/**
 * Resolves a recorded micro-move against the allowed candidates `buf[0..n)`; when it is
 * not among them, says which rule it breaks, most specific reason first.
 */
export function classifyIllegal(search: TurnSearch, pos: Position, pool: DicePool, micro: number, text: string, buf: Move[], n: number): Classified {
  const resolved = uciToMove(pos, text);
  if (!resolved.ok) {
    const rule: RuleId = resolved.error.code === 'uci.empty-square' ? 'move.not-pseudo-legal' : 'move.notation';
    return fail(rule, resolved.error.message);
  }
  const m = resolved.value;
  for (let i = 0; i < n; i++) if (buf[i] === m) return { ok: true, move: m };

  const rules = search.rules;
  const eachDie = rules.turn.structure === 'each-die' && rules.dice.count > 0;
  const from = moveFrom(m);
  const to = moveTo(m);
  const piece = pos.board[from];
  const color = piece > 0 ? 0 : 1;
  const side = pos.turn === 0 ? 'white' : 'black';
  if (color !== pos.turn) return fail('move.not-pseudo-legal', `"${text}" moves a ${color === 0 ? 'white' : 'black'} piece on ${side}'s turn`);
  if (eachDie && pool.total === 0) return fail('turn.too-many-moves', `every die is spent; "${text}" is one micro-move too many`);
  if (rules.turn.onePiece && micro > 0 && from !== pos.landing) {
    return fail('turn.other-piece', `one piece makes every micro-move of a turn here; "${text}" moves another than the one on ${squareName(pos.landing)}`);
  }
  const role = piece > 0 ? piece : -piece;

  if (moveKind(m) === CASTLE) {
    const all: Move[] = [];
    const k = generateCastling(pos, pos.turn, false, all, 0);
    if (!all.slice(0, k).includes(m)) return fail('castling.rights', `"${text}" castles without the right, with king or rook off their home squares, or through a piece`);
    if (rules.castling.attacks === 'orthodox') {
      const safe: Move[] = [];
      const j = generateCastling(pos, pos.turn, true, safe, 0);
      if (!safe.slice(0, j).includes(m)) return fail('castling.through-attack', `"${text}" castles out of or through an attacked square, which this dialect forbids`);
    }
    if (!search.micro.castlingPaid(pool)) {
      const dice = pool.list().map(dieName).join(', ') || 'none';
      if (rules.castling.dice === 'king-and-rook') return fail('castling.needs-king-and-rook-dice', `castling "${text}" needs a king die and a rook die; dice left: ${dice}`);
      return fail('castling.dice', `castling "${text}" needs a ${rules.castling.dice.replace(/-/g, ' ')} die; dice left: ${dice}`);
    }
    if (rules.check === 'orthodox' && search.micro.checkForbids(pos, m)) return fail('check.leaves-king-attacked', `"${text}" leaves the king attacked`);
    return fail('castling.rights', `"${text}" is not a castling move this dialect allows here`);
  }

  if (moveKind(m) === EN_PASSANT) {
    const geometric: Move[] = [];
    const k = generatePieceMoves(pos, from, GEOMETRY, geometric, 0);
    const live = geometric.slice(0, k).includes(m);
    const victim = pos.board[color === 0 ? to - 8 : to + 8];
    if (live && !search.micro.epOpen(micro)) {
      return fail('en-passant.window', `en passant "${text}" on micro-move ${micro + 1}: this dialect allows it only on the first micro-move of the reply turn`);
    }
    if (!live) {
      if (victim === (color === 0 ? -PAWN : PAWN)) {
        return fail('en-passant.window', `en passant "${text}": ${squareName(to)} is not a live en passant target now (the double step was not made on the opponent's last turn)`);
      }
      return fail('move.not-pseudo-legal', `"${text}": a pawn cannot move diagonally to the empty square ${squareName(to)}`);
    }
  } else if (role === KING && to >> 3 === from >> 3 && Math.abs((to & 7) - (from & 7)) === 2) {
    return fail('castling.rights', `"${text}" castles without a castling right on that side`);
  } else {
    const geometric: Move[] = [];
    const k = generatePieceMoves(pos, from, GEOMETRY, geometric, 0);
    const moves = geometric.slice(0, k);
    if (!moves.some((g) => samePath(g, m))) {
      return fail('move.not-pseudo-legal', `the ${ROLE_NAMES[role]} on ${squareName(from)} cannot move to ${squareName(to)}`);
    }
    // A king promotion is the path of a queen promotion (the core generates none; a dialect's dice rules may add it).
    const asQueen = movePromotion(m) === KING ? (m & ~(7 << 12)) | (QUEEN << 12) : -1;
    if (!moves.includes(m) && !moves.includes(asQueen)) {
      if (role === PAWN && movePromotion(m) === 0) return fail('promotion.missing', `"${text}" reaches the last rank without naming a promotion piece`);
      return fail('move.not-pseudo-legal', `"${text}" is not a move of the ${ROLE_NAMES[role]} on ${squareName(from)}`);
    }
    const promo = movePromotion(m);
    if (promo !== 0 && (search.micro.promotions & (1 << promo)) === 0) {
      return fail('promotion.not-allowed', `"${text}" promotes to a ${ROLE_NAMES[promo]}, which this dialect does not allow`);
    }
    if (promo !== 0 && rules.promotion.die === 'die-piece' && pool.total > 0) {
      const dice = pool.list().map(dieName).join(', ');
      const anyPromotionHere = buf.slice(0, n).some((g) => samePath(g, m));
      if (anyPromotionHere) return fail('promotion.not-allowed', `"${text}" promotes to a ${ROLE_NAMES[promo]}, but the die (${dice}) decides the piece`);
    }
  }

  // Geometry is fine: the dice or the check rule forbid it.
  if (rules.check === 'orthodox' && search.micro.checkForbids(pos, m)) {
    return fail('check.leaves-king-attacked', `"${text}" leaves the ${side} king attacked`);
  }
  if (micro === 0 && n === 0) {
    return fail('pass.required', `no micro-move can be played with ${pool.list().map(dieName).join(', ') || 'these dice'}: the turn must pass, but "${text}" was played`);
  }
  const dice = pool.list().map(dieName).join(', ') || 'none';
  if (rules.dice.count > 0 && !(search.micro.rules.turn.doublesAnyMove && pool.hasDoubles())) {
    const lastRank = role === PAWN && (to >> 3 === 7 || to >> 3 === 0);
    if (rules.promotion.die === 'die-piece' && lastRank && !pool.has(PAWN)) {
      if (movePromotion(m) === KING) return fail('dice.piece-not-rolled', `"${text}" makes the pawn a king, which takes a king die (dice: ${dice})`);
      const dies = rules.promotion.onKingDie ? '1–6' : '1–5';
      return fail('dice.piece-not-rolled', `"${text}" moves a pawn to the last rank, which takes a die ${dies} (dice: ${dice})`);
    }
    if (!pool.has(role) && !(rules.dice.reads === 'count' && pool.has(ANY_DIE))) return fail('dice.piece-not-rolled', `"${text}" moves a ${ROLE_NAMES[role]}, but no ${ROLE_NAMES[role]} die is left (dice: ${dice})`);
  }
  return fail('move.not-pseudo-legal', `"${text}" is not allowed here`);
}
