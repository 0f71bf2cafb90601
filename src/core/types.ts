/**
 * Plain numbers for speed on the replay hot path.
 * Squares: 0 = a1 … 63 = h8. Colours: 0 = white, 1 = black.
 * Roles use the dice faces: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king,
 * so a die value is directly the role it permits.
 * A piece on the board is +role for white, -role for black, 0 for empty.
 */
export type Square = number;
export type Color = 0 | 1;
export type Role = 1 | 2 | 3 | 4 | 5 | 6;

export const WHITE: Color = 0;
export const BLACK: Color = 1;

export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;

export const ROLE_LETTERS = ' pnbrqk';

/**
 * A die value beyond the six roles: a die that pays for one micro-move of any piece (a
 * count die's moves). Written `*` in a DFEN's dice field; never a piece on the board.
 */
export const ANY_DIE = 7;
/** What one die of a turn's pool pays for: a role, or any piece (ANY_DIE). */
export type Die = Role | typeof ANY_DIE;
export const ROLE_NAMES = ['', 'pawn', 'knight', 'bishop', 'rook', 'queen', 'king'] as const;

export function squareName(sq: Square): string {
  return String.fromCharCode(97 + (sq & 7)) + String.fromCharCode(49 + (sq >> 3));
}

/** Parses `e4` or `E4`; -1 when it is not a square. */
export function parseSquare(text: string): Square {
  if (text.length !== 2) return -1;
  const f = text.toLowerCase().charCodeAt(0) - 97;
  const r = text.charCodeAt(1) - 49;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? r * 8 + f : -1;
}
