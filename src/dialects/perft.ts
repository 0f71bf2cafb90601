import { ALL_ROLES, type GenOptions, type Position } from '../core/index.js';
import type { Rules } from '../rules/rules.js';

const PROMO_BITS = { n: 1 << 2, b: 1 << 3, r: 1 << 4, q: 1 << 5 } as const;

/** Orthodox move generation as a dice-less dialect (the `chess` control) defines it: its castling and promotion options. */
export function perftOptions(rules: Rules): GenOptions {
  return {
    roles: ALL_ROLES,
    enPassant: true,
    promotions: rules.promotion.pieces.reduce((m, p) => m | PROMO_BITS[p], 0),
    castling: true,
    castlingOrthodox: rules.castling.attacks === 'orthodox',
  };
}

/** Does this position need Chess960 castling (a king, or a rook holding a right, off its classic square)? */
export function needs960(pos: Position): boolean {
  for (const c of [0, 1] as const) {
    const rights = (pos.castling >> (c * 8)) & 0xff;
    if (rights === 0) continue;
    if (pos.kingHomeFile[c] !== 4 || (rights & ~0x81) !== 0) return true;
  }
  return false;
}
