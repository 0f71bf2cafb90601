import { ANY_DIE, BISHOP, type Die, KING, KNIGHT, PAWN, type Position, QUEEN, type Role, ROOK } from '../core/index.js';
import type { Rules } from './rules.js';

/** A turn not rolled (a free first move, a turn in or after check): one die of every type, so any legal move (one-move dialects). */
export const FREE_MOVE: readonly Role[] = [1, 2, 3, 4, 5, 6];

/** Does the dialect read a roll as anything but "each die names the piece its face is" (the cost-free common case)? */
export function readsRollsItself(rules: Rules): boolean {
  return rules.dice.reads !== 'pieces' || rules.dice.facesByDie !== null;
}

/**
 * The dice a recorded roll gives the turn (faces 1–6 in roll order, already checked): what
 * each face names (`dice.faces`, or the die's own faces, an `any` face being every type), a
 * count die's micro-moves of any piece (ANY_DIE), or a piece die's type as many times as the
 * count die says.
 */
export function diceOfRoll(rules: Rules, faces: readonly number[]): Die[] {
  const d = rules.dice;
  if (d.reads === 'count') return new Array<Die>(faces.length === 0 ? 0 : d.counts[faces[0] - 1]).fill(ANY_DIE);
  if (d.reads === 'piece-and-count') return faces.length < 2 ? [] : new Array<Die>(d.counts[faces[1] - 1]).fill(d.faces[faces[0] - 1]);
  const out: Die[] = [];
  for (let i = 0; i < faces.length; i++) {
    const face = (d.facesByDie?.[i] ?? d.faces)[faces[i] - 1];
    if (face === 'any') out.push(...FREE_MOVE);
    else out.push(face);
  }
  return out;
}

/** Does one of the faces rolled give a free choice (a die's `any` face)? */
export function rollsFreeChoice(rules: Rules, faces: readonly number[]): boolean {
  const byDie = rules.dice.facesByDie;
  return byDie !== null && faces.some((f, i) => byDie[i]?.[f - 1] === 'any');
}

const STEPS: Record<number, readonly number[][]> = {
  [KNIGHT]: [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]],
  [BISHOP]: [[1, 1], [1, -1], [-1, 1], [-1, -1]],
  [ROOK]: [[1, 0], [-1, 0], [0, 1], [0, -1]],
};
STEPS[QUEEN] = [...STEPS[BISHOP], ...STEPS[ROOK]];
STEPS[KING] = STEPS[QUEEN];

/**
 * The roles of the side to move that pass vchess.club's test of "can move" (`dice.movableTest:
 * "step"`): a pawn with the square ahead empty or an enemy piece diagonally ahead; another
 * piece with one of its steps (a knight's jump, one square along a bishop's, rook's, queen's
 * or king's lines) onto an empty square or an enemy piece. En passant and castling do not count.
 */
export function stepMovableRoles(pos: Position): Role[] {
  const b = pos.board;
  const sign = pos.turn === 0 ? 1 : -1;
  const enemyOrEmpty = (f: number, r: number): boolean => f >= 0 && f < 8 && r >= 0 && r < 8 && b[r * 8 + f] * sign <= 0;
  const enemy = (f: number, r: number): boolean => f >= 0 && f < 8 && r >= 0 && r < 8 && b[r * 8 + f] * sign < 0;
  let found = 0;
  for (let sq = 0; sq < 64; sq++) {
    const role = b[sq] * sign;
    if (role <= 0 || found & (1 << role)) continue;
    const f = sq & 7;
    const r = sq >> 3;
    let moves = false;
    if (role === PAWN) {
      const ahead = r + sign;
      moves = (ahead >= 0 && ahead < 8 && b[ahead * 8 + f] === 0) || enemy(f - 1, ahead) || enemy(f + 1, ahead);
    } else {
      moves = STEPS[role].some(([df, dr]) => enemyOrEmpty(f + df, r + dr));
    }
    if (moves) found |= 1 << role;
  }
  const out: Role[] = [];
  for (let role = 1; role <= 6; role++) if (found & (1 << role)) out.push(role as Role);
  return out;
}
