import { BISHOP, KING, KNIGHT, type Move, PAWN, type Position, QUEEN, ROOK } from '../../core/index.js';
import type { DicePool, TurnEngine } from '../../rules/index.js';

/** Knight distance between two squares on an empty board (0–6). */
const KNIGHT_DIST = (() => {
  const d = new Int8Array(64 * 64).fill(-1);
  const jumps = [
    [1, 2], [2, 1], [-1, 2], [-2, 1], [1, -2], [2, -1], [-1, -2], [-2, -1],
  ];
  for (let from = 0; from < 64; from++) {
    const queue = [from];
    d[from * 64 + from] = 0;
    while (queue.length) {
      const sq = queue.shift()!;
      for (const [df, dr] of jumps) {
        const f = (sq & 7) + df;
        const r = (sq >> 3) + dr;
        if (f < 0 || f > 7 || r < 0 || r > 7) continue;
        const to = r * 8 + f;
        if (d[from * 64 + to] >= 0) continue;
        d[from * 64 + to] = d[from * 64 + sq] + 1;
        queue.push(to);
      }
    }
  }
  return d;
})();

/** Moves a piece needs to reach `to` on an empty board (blockers only make it longer). */
function emptyBoardDistance(role: number, from: number, to: number): number {
  const df = Math.abs((from & 7) - (to & 7));
  const dr = Math.abs((from >> 3) - (to >> 3));
  switch (role) {
    case KNIGHT:
      return KNIGHT_DIST[from * 64 + to];
    case KING:
      return Math.max(df, dr);
    case BISHOP:
      return df === dr ? 1 : (df + dr) % 2 === 0 ? 2 : 99;
    case ROOK:
      return df === 0 || dr === 0 ? 1 : 2;
    case QUEEN:
      return df === 0 || dr === 0 || df === dr ? 1 : 2;
    default:
      return 99;
  }
}

/**
 * Could any line of this turn capture the enemy king? A cheap over-approximation first
 * (each rolled piece type's distance to the king on an empty board, within its dice;
 * pawns that could promote make it "maybe"), then the engine's exact search only when
 * the cheap test cannot rule it out. Standard dice (every die moves its own type) only;
 * other turn structures always take the exact search.
 */
export function canCaptureKingThisTurn(engine: TurnEngine, pos: Position, pool: DicePool, micro = 0): boolean {
  return search(engine, pos, pool, micro);
}

// Own buffers per depth: callers may be iterating the engine's or their own.
const BUFFERS: Move[][] = [];

/** The exact search, with the cheap test at every node: most lines are cut before any move is generated. */
function search(engine: TurnEngine, pos: Position, pool: DicePool, micro: number): boolean {
  if (pool.total === 0 || !mayCaptureKing(engine, pos, pool)) return false;
  const buf = (BUFFERS[micro] ??= []);
  const n = engine.micro.generate(pos, pool, micro, buf);
  for (let i = 0; i < n; i++) if (engine.micro.capturesKing(pos, buf[i])) return true;
  if (!engine.spendsDieByDie) return false;
  for (let i = 0; i < n; i++) {
    const m = buf[i];
    const cost = engine.micro.costOf(pos, m, pool);
    pool.pay(cost);
    pos.make(m);
    const yes = search(engine, pos, pool, micro + 1);
    pos.unmake(m);
    pool.refund(cost);
    if (yes) return true;
  }
  return false;
}

export function mayCaptureKing(engine: TurnEngine, pos: Position, pool: DicePool): boolean {
  const rules = engine.rules;
  const standard =
    engine.spendsDieByDie && rules.promotion.die === 'pawn' && rules.enPassant.die === 'pawn' && rules.dice.faces.every((f, i) => f === i + 1);
  if (!standard) return true;
  const me = pos.turn;
  const king = pos.kingSquare[1 - me];
  if (king < 0) return false;
  const board = pos.board;
  const pawnDice = pool.count[PAWN];
  for (let sq = 0; sq < 64; sq++) {
    const p = board[sq];
    if (p === 0 || (p > 0 ? 0 : 1) !== me) continue;
    const role = p > 0 ? p : -p;
    if (role === PAWN) {
      if (pawnDice === 0) continue;
      const rank = sq >> 3;
      const forward = me === 0 ? (king >> 3) - rank : rank - (king >> 3);
      const onStart = me === 0 ? rank === 1 : rank === 6;
      // Pushes (a double step from the start rank) or captures (each a file aside), then the capture.
      const df = Math.abs((king & 7) - (sq & 7));
      if (forward >= 1 && forward <= pawnDice + (onStart ? 1 : 0) && df <= pawnDice && (df === 1 || pawnDice >= 2)) return true;
      // A pawn that can promote this turn becomes a piece that may move on another die.
      const toLast = me === 0 ? 7 - rank : rank;
      if (toLast <= pawnDice && pool.total > 1) return true;
      continue;
    }
    const dice = pool.count[role];
    if (dice === 0 || emptyBoardDistance(role, sq, king) > dice) continue;
    // One die of a slider on a line to the king: the pieces between must be cleared by the other dice.
    if (dice === 1 && role !== KNIGHT && role !== KING && !lineClearable(pos, pool, sq, king, role)) continue;
    return true;
  }
  return false;
}

/**
 * Can the other dice of the turn clear the squares between a slider (one die of its
 * type) and the king? An own piece between must move away on a die of its type; an
 * enemy piece must be captured and the capturer move on again (two dice at least).
 */
function lineClearable(pos: Position, pool: DicePool, from: number, to: number, role: number): boolean {
  const df = Math.sign((to & 7) - (from & 7));
  const dr = Math.sign((to >> 3) - (from >> 3));
  const step = dr * 8 + df;
  const spare = pool.count.slice();
  spare[role]--;
  let needed = 0;
  for (let sq = from + step; sq !== to; sq += step) {
    const p = pos.board[sq];
    if (p === 0) continue;
    if ((p > 0 ? 0 : 1) === pos.turn) {
      const r = p > 0 ? p : -p;
      if (spare[r] === 0) return false;
      spare[r]--;
      needed++;
    } else needed += p === PAWN || p === -PAWN ? 1 : 2; // a pawn may go en passant
  }
  return needed <= pool.total - 1;
}
