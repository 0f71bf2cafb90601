import { type Color, isAttacked, KING, type Move, moveFrom, movePromotion, moveTo, type Position } from '../core/index.js';
import type { Prng } from '../dice/index.js';
import type { TurnWalker } from '../rules/turn-walker.js';

/** Bot styles of the self-play generator. */
export const BOT_STYLES = ['random', 'greedy'] as const;
export type BotStyle = (typeof BOT_STYLES)[number];

/** Picks the next micro-move of a turn, or null when the turn is complete. */
export interface Bot {
  readonly style: BotStyle;
  step(walker: TurnWalker, prng: Prng): Move | null;
}

/** Material values by role (index 1–6); the king is priceless but capturing it ends the game anyway. */
export const VALUES = [0, 1, 3, 3, 5, 9, 0];

/** Material of white minus black. */
export function materialBalance(pos: Position): number {
  let s = 0;
  const b = pos.board;
  for (let sq = 0; sq < 64; sq++) {
    const p = b[sq];
    if (p > 0) s += VALUES[p];
    else if (p < 0) s -= VALUES[-p];
  }
  return s;
}

function shuffleInPlace<T>(items: T[], prng: Prng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = prng.nextInt(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/**
 * Uniformly random among the legal next micro-moves at every step (a random walk over
 * the turn's tree of legal micro-move sequences). Candidates are shuffled and the first
 * legal one is taken, which is uniform over the legal ones without testing them all.
 */
export const randomBot: Bot = {
  style: 'random',
  step(walker, prng) {
    const candidates = shuffleInPlace(walker.candidates(), prng);
    for (const m of candidates) if (walker.isLegal(m)) return m;
    return null;
  },
};

/**
 * Greedy: captures the king when any legal line does (the capture itself, or the first
 * move of a line that still captures it this turn); otherwise prefers material (captures,
 * promotions) and avoids leaving its own king attacked or the moved piece hanging.
 * Ties are broken at random.
 */
export const greedyBot: Bot = {
  style: 'greedy',
  step(walker, prng) {
    const candidates = walker.candidates();
    if (candidates.length === 0) return null;
    const pos = walker.position;
    for (const m of candidates) if (capturesKing(pos, m)) return m;
    const hunting = walker.canCaptureKing();
    const scored: Array<{ m: Move; s: number }> = [];
    const me = pos.turn;
    for (const m of candidates) {
      if (hunting && !walker.captureStillPossibleAfter(m)) continue;
      scored.push({ m, s: evaluate(pos, m, me) + prng.next() * 0.25 });
    }
    if (scored.length === 0) for (const m of candidates) scored.push({ m, s: evaluate(pos, m, me) + prng.next() * 0.25 });
    scored.sort((a, b) => b.s - a.s);
    for (const { m } of scored) if (walker.isLegal(m)) return m;
    // Only when hunting lines were all illegal (cannot happen: a capture line is always legal).
    for (const m of candidates) if (walker.isLegal(m)) return m;
    return null;
  },
};

export const BOTS: Record<BotStyle, Bot> = { random: randomBot, greedy: greedyBot };

function capturesKing(pos: Position, m: Move): boolean {
  if (m >> 15 === 3) return false;
  const q = pos.board[moveTo(m)];
  return q === KING || q === -KING;
}

/** Static value of one micro-move for the side `me`. */
function evaluate(pos: Position, m: Move, me: Color): number {
  const b = pos.board;
  const to = moveTo(m);
  const moved = b[moveFrom(m)];
  const movedRole = moved > 0 ? moved : -moved;
  const kind = m >> 15;
  let s = 0;
  if (kind !== 3) {
    const victim = b[to];
    if (victim !== 0) s += VALUES[victim > 0 ? victim : -victim];
    if (kind === 2) s += 1;
  }
  const promo = movePromotion(m);
  if (promo) s += VALUES[promo] - 1;
  const them = (me ^ 1) as Color;
  pos.make(m);
  const king = pos.kingSquare[me];
  if (king >= 0 && isAttacked(pos, king, them)) s -= 30;
  if (kind !== 3) {
    const landed = promo || movedRole;
    if (landed !== KING && isAttacked(pos, to, them) && !isAttacked(pos, to, me)) s -= VALUES[landed] * 0.6;
  }
  pos.unmake(m);
  return s;
}
