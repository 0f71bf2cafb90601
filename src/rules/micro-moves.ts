import {
  ANY_DIE,
  BISHOP,
  CASTLE,
  EN_PASSANT,
  type Color,
  filterKingSafe,
  type GenOptions,
  generateCastling,
  generateMoves,
  generatePieceMoves,
  inCheck,
  isPieceMove,
  KING,
  KNIGHT,
  type Move,
  moveFrom,
  movePromotion,
  moveTo,
  PAWN,
  type Position,
  QUEEN,
  ROOK,
  STANDARD_PROMOTIONS,
} from '../core/index.js';
import { type DiceCost, diceIn, dieRole, NO_DICE, oneDie, twoDice } from './dice-cost.js';
import type { DicePool } from './dice-pool.js';
import type { Rules } from './rules.js';

const PROMO_BITS: Record<string, number> = { n: 1 << KNIGHT, b: 1 << BISHOP, r: 1 << ROOK, q: 1 << QUEEN };

/** Does a (pawn) move land on a last rank? */
const reachesLastRank = (m: Move): boolean => {
  const r = moveTo(m) >> 3;
  return r === 7 || r === 0;
};

/**
 * Which micro-moves a dialect allows from a position with a pool of dice, and what
 * each one costs. This is the only place that maps dice to moves.
 */
export class MicroMoves {
  readonly promotions: number;
  private readonly opts: GenOptions;
  private readonly orthodox: boolean;
  /** Check-based dialects: may a king capture leave the capturer's own king attacked? */
  private readonly captureIgnoresCheck: boolean;
  private readonly dieRule: boolean;
  /** Count dice: every die is an ANY_DIE, paying one micro-move of any piece. */
  private readonly wild: boolean;
  /** One piece makes every micro-move of a turn (`turn.onePiece`). */
  private readonly onePiece: boolean;
  /** A pawn a king die moves to the last rank becomes a king (`promotion.onKingDieBecomes: "king"`). */
  private readonly kingPromotes: boolean;
  // The rules' choices read once here, not per micro-move (the replay's hot path).
  /** No dice (orthodox chess): every role moves, castling is free. */
  private readonly noDice: boolean;
  /** One-move dialects whose doubles allow any legal move. */
  private readonly doublesAny: boolean;
  /** En passant on any die (`enPassant.die: "any"`). */
  private readonly epAnyDie: boolean;
  /** En passant targets stay open for the whole reply turn (`enPassant.window: "reply-turn"`). */
  private readonly epWholeTurn: boolean;
  /** The dice castling needs (`castling.dice`). */
  private readonly castleDice: Rules['castling']['dice'];

  constructor(readonly rules: Rules) {
    this.wild = rules.dice.reads === 'count';
    this.onePiece = rules.turn.onePiece;
    this.kingPromotes = rules.promotion.onKingDieBecomes === 'king';
    // The king's bit lets a king promotion fit (core/movegen never generates one: dieRulePromotions adds it).
    this.promotions = rules.promotion.pieces.reduce((m, p) => m | PROMO_BITS[p], this.kingPromotes ? 1 << KING : 0);
    this.orthodox = rules.check === 'orthodox';
    this.captureIgnoresCheck = rules.kingCaptureIgnoresCheck;
    this.dieRule = rules.promotion.die === 'die-piece';
    this.noDice = rules.dice.count === 0;
    this.doublesAny = rules.turn.structure === 'one-move' && rules.turn.doublesAnyMove;
    this.epAnyDie = rules.enPassant.die === 'any';
    this.epWholeTurn = rules.enPassant.window === 'reply-turn';
    this.castleDice = rules.castling.dice;
    this.opts = {
      roles: 0,
      enPassant: true,
      promotions: this.promotions,
      castling: false,
      castlingOrthodox: rules.castling.attacks === 'orthodox',
    };
  }

  /** May en passant targets be captured on micro-move `micro` of the turn? */
  epOpen(micro: number): boolean {
    return this.epWholeTurn || micro === 0;
  }

  /** Roles the pool lets move (one-move dialects: either die, doubles or no dice = all). */
  private permittedRoles(pool: DicePool): number {
    if (this.noDice) return 0x7e;
    if (this.doublesAny && pool.hasDoubles()) return 0x7e;
    if (this.wild) return pool.has(ANY_DIE) ? 0x7e : 0;
    return pool.roles() & 0x7e;
  }

  /** Keeps the moves of `out[0..n)` that start from `sq`; returns how many. */
  private keepFrom(sq: number, out: Move[], n: number): number {
    let k = 0;
    for (let i = 0; i < n; i++) if ((out[i] & 63) === sq) out[k++] = out[i];
    return k;
  }

  /**
   * Is this one micro-move among `generate`'s answer? The replay fast path: it generates
   * only the moving piece's moves instead of every candidate. `orthodoxLegal`: the caller has
   * seen that `m` is a legal move of orthodox chess here (`isOrthodoxPieceMove`: a piece move
   * that leaves the mover's king unattacked), so the check rule's test is skipped, and the
   * geometry's too where this dialect's reads the same (its promotions the standard four).
   */
  allows(pos: Position, pool: DicePool, micro: number, m: Move, orthodoxLegal = false): boolean {
    const from = m & 63;
    const p = pos.board[from];
    if (p === 0 || (p > 0 ? 0 : 1) !== pos.turn) return false;
    if (this.onePiece && micro > 0 && from !== pos.landing) return false;
    const kind = m >> 15;
    let found = false;
    if (kind === CASTLE) {
      if (!this.castlingPaid(pool)) return false;
      const buf = this.one;
      const n = generateCastling(pos, pos.turn, this.opts.castlingOrthodox, buf, 0);
      for (let i = 0; i < n && !found; i++) found = buf[i] === m;
    } else {
      const role = p > 0 ? p : -p;
      const promo = (m >> 12) & 7;
      let paid = (this.permittedRoles(pool) & (1 << role)) !== 0;
      if (role === PAWN && this.dieRule && reachesLastRank(m)) paid = this.dieAllowsPromotion(pool, promo);
      if (role === PAWN && kind === EN_PASSANT && this.epAnyDie && pool.total > 0) paid = true;
      if (!paid) return false;
      const opts = this.opts;
      opts.roles = 0x7e;
      opts.enPassant = this.epOpen(micro);
      found = (orthodoxLegal && opts.enPassant && this.promotions === STANDARD_PROMOTIONS) || isPieceMove(pos, m, opts);
    }
    return found && !(this.orthodox && !orthodoxLegal && this.checkForbids(pos, m));
  }

  /** Does the check rule forbid `m` (orthodox dialects): it leaves the mover's king attacked, and is not an exempt king capture? */
  checkForbids(pos: Position, m: Move): boolean {
    return !(this.captureIgnoresCheck && this.capturesKing(pos, m)) && this.leavesKingAttacked(pos, m);
  }
  private readonly one: Move[] = [];

  /** Does the pool pay for castling? */
  castlingPaid(pool: DicePool): boolean {
    if (this.noDice) return true;
    if (this.doublesAny && pool.hasDoubles()) return true;
    if (this.wild) return pool.has(ANY_DIE);
    switch (this.castleDice) {
      case 'king-and-rook':
        return pool.has(KING) && pool.has(ROOK);
      case 'king':
        return pool.has(KING);
      case 'rook':
        return pool.has(ROOK);
      case 'king-or-rook':
        return pool.has(KING) || pool.has(ROOK);
      case 'none':
        return true;
    }
  }

  /** Appends the allowed micro-moves of the side to move into `out`; returns the count. */
  generate(pos: Position, pool: DicePool, micro: number, out: Move[]): number {
    const color = pos.turn;
    const opts = this.opts;
    opts.enPassant = this.epOpen(micro);
    const roles = this.permittedRoles(pool);
    opts.roles = roles;
    let n = generateMoves(pos, color, opts, out, 0);
    if (this.dieRule) n = this.dieRulePromotions(pos, pool, roles, out, n);
    if (this.epAnyDie && pool.total > 0 && (roles & (1 << PAWN)) === 0 && opts.enPassant) n = this.anyDieEnPassant(pos, out, n);
    if (this.castlingPaid(pool)) n = generateCastling(pos, color, opts.castlingOrthodox, out, n);
    // One piece a turn: a micro-move after the first starts where the last one landed.
    if (this.onePiece && micro > 0) n = this.keepFrom(pos.landing, out, n);
    if (!this.orthodox) return n;
    return this.captureIgnoresCheck ? this.filterAllowingKingCaptures(pos, out, n) : filterKingSafe(pos, color, out, n);
  }

  /** filterKingSafe that keeps every king capture (kingCaptureIgnoresCheck: the game ends on it). */
  private filterAllowingKingCaptures(pos: Position, out: Move[], n: number): number {
    let k = 0;
    for (let i = 0; i < n; i++) if (!this.checkForbids(pos, out[i])) out[k++] = out[i];
    return k;
  }

  /**
   * BrainKing-style promotion: a pawn reaching the last rank moves on the die of the
   * piece it becomes (a pawn die gives a free choice); other pawn moves need a pawn die.
   * A pawn taking the king on the last rank reaches it too: it moves on any of those dice.
   */
  private dieRulePromotions(pos: Position, pool: DicePool, roles: number, out: Move[], n: number): number {
    // Filter what the ordinary generation produced for pawns.
    let k = 0;
    const b = pos.board;
    for (let i = 0; i < n; i++) {
      const m = out[i];
      const p = b[moveFrom(m)];
      // Every pawn move to the last rank, a king capture there included (as `allows` judges it).
      if ((p === PAWN || p === -PAWN) && reachesLastRank(m) && !this.dieAllowsPromotion(pool, movePromotion(m))) continue;
      out[k++] = m;
    }
    if (this.kingPromotes && pool.has(KING)) k = this.kingPromotions(pos, out, k);
    if (roles & (1 << PAWN)) return k;
    // No pawn die: pawns may still promote on a piece die.
    const color: Color = pos.turn;
    const buf: Move[] = [];
    const opts = { ...this.opts, roles: 1 << PAWN };
    for (let sq = color === 0 ? 48 : 8, end = sq + 8; sq < end; sq++) {
      if (b[sq] !== (color === 0 ? PAWN : -PAWN)) continue;
      const c = generatePieceMoves(pos, sq, opts, buf, 0);
      for (let i = 0; i < c; i++) {
        if (reachesLastRank(buf[i]) && this.dieAllowsPromotion(pool, movePromotion(buf[i]))) out[k++] = buf[i];
      }
    }
    return k;
  }

  /**
   * vchess.club's Dice (`promotion.onKingDieBecomes: "king"`): on a king die a pawn about to
   * promote steps or captures onto the last rank and becomes a king, a second one. Written as
   * promotions to a king, one per last-rank square the pawn reaches (a king capture there aside:
   * that move does not promote, and `lastRankDie` pays it).
   */
  private kingPromotions(pos: Position, out: Move[], n: number): number {
    const color: Color = pos.turn;
    const b = pos.board;
    const buf: Move[] = [];
    const opts = { ...this.opts, roles: 1 << PAWN };
    for (let sq = color === 0 ? 48 : 8, end = sq + 8; sq < end; sq++) {
      if (b[sq] !== (color === 0 ? PAWN : -PAWN)) continue;
      const c = generatePieceMoves(pos, sq, opts, buf, 0);
      for (let i = 0; i < c; i++) if (movePromotion(buf[i]) === QUEEN) out[n++] = (buf[i] & ~(7 << 12)) | (KING << 12);
    }
    return n;
  }

  /** En passant on any die (an option): the pawn captures in passing even without a pawn die. */
  private anyDieEnPassant(pos: Position, out: Move[], n: number): number {
    const buf: Move[] = [];
    const opts = { ...this.opts, roles: 1 << PAWN, enPassant: true };
    const c = generateMoves(pos, pos.turn, opts, buf, 0);
    for (let i = 0; i < c; i++) if (buf[i] >> 15 === EN_PASSANT) out[n++] = buf[i];
    return n;
  }

  /** Does the pool pay for a pawn reaching the last rank as `promo` (0: taking the king there, no promotion)? */
  private dieAllowsPromotion(pool: DicePool, promo: number): boolean {
    return this.lastRankDie(pool, promo) !== 0;
  }

  /**
   * The die that pays a pawn's move to the last rank under the die-piece rule, or 0: the pawn
   * die, the promotion piece's die, the king die (onKingDie: a free choice, or with
   * `onKingDieBecomes: "king"` only the king promotion); a king capture there moves on any of them.
   */
  private lastRankDie(pool: DicePool, promo: number): number {
    if (promo === KING) return this.kingPromotes && pool.has(KING) ? KING : 0;
    if (pool.has(PAWN)) return PAWN;
    if (promo !== 0 && pool.has(promo)) return promo;
    if (promo === 0) for (let r = KNIGHT; r <= QUEEN; r++) if (pool.has(r)) return r;
    if (pool.has(KING) && this.rules.promotion.onKingDie && (promo === 0 || !this.kingPromotes)) return KING;
    return 0;
  }

  /** The die roles a micro-move spends (each-die dialects), pushed into `spent`. */
  cost(pos: Position, m: Move, spent: number[], pool?: DicePool): number {
    const c = this.costOf(pos, m, pool);
    spent.length = 0;
    for (let i = 0; i < diceIn(c); i++) spent.push(dieRole(c, i));
    return spent.length;
  }

  /** The dice a micro-move spends (each-die dialects), packed (see dice-cost.ts): `cost` without an array. */
  costOf(pos: Position, m: Move, pool?: DicePool): DiceCost {
    // A count die's micro-moves, castling included, are each paid by one of its dice.
    if (this.wild) return oneDie(ANY_DIE);
    if ((m >> 15) === CASTLE) {
      switch (this.castleDice) {
        case 'king-and-rook':
          return twoDice(KING, ROOK);
        case 'king':
          return oneDie(KING);
        case 'king-or-rook':
          // Either die pays: the king die when there is one, else the rook die.
          return pool && !pool.has(KING) ? oneDie(ROOK) : oneDie(KING);
        case 'rook':
          return oneDie(ROOK);
        case 'none':
        default:
          return NO_DICE;
      }
    }
    const p = pos.board[moveFrom(m)];
    const role = p > 0 ? p : -p;
    if (pool && this.dieRule && role === PAWN && reachesLastRank(m)) {
      // A piece die moved the pawn to the last rank (one-move dialects: which die paid, for the flags check).
      const die = this.lastRankDie(pool, movePromotion(m));
      if (die !== 0) return oneDie(die);
    }
    if (pool && !pool.has(role) && m >> 15 === EN_PASSANT) {
      // En passant on any die (option): it spends the least valuable die left.
      for (let r = 1; r <= 6; r++) if (pool.has(r)) return oneDie(r);
    }
    return oneDie(role);
  }

  /** Does this micro-move capture a king? */
  capturesKing(pos: Position, m: Move): boolean {
    if ((m >> 15) === CASTLE) return false;
    const q = pos.board[moveTo(m)];
    return q === KING || q === -KING;
  }

  /** Would the mover's king stand attacked after `m`? (Only meaningful for orthodox dialects.) */
  leavesKingAttacked(pos: Position, m: Move): boolean {
    const color = pos.turn;
    pos.make(m);
    const bad = inCheck(pos, color);
    pos.unmake(m);
    return bad;
  }
}
