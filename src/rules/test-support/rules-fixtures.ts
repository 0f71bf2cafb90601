import type { Rules } from '../rules.js';

/** The reference dialect's rules as plain values, for core tests that must not depend on the dialect loader. */
export const REFERENCE: Rules = {
  dice: { count: 3, draw: 'provably-fair' },
  turn: { structure: 'each-die', doublesAnyMove: false },
  maximum: 'path',
  check: 'none',
  castling: { dice: 'king-and-rook', attacks: 'ignored', chess960: false, notation: 'king-two-squares' },
  enPassant: { window: 'reply-turn' },
  promotion: { pieces: ['q', 'r', 'b', 'n'], die: 'pawn', onKingDie: false },
  draws: { agreement: true, midTurnOffers: false, moveCounterLimit: 100, castlingCounts: 1, turnLimit: 5000, repetition: null, stalemate: false, insufficientMaterial: false },
  end: { kingCapture: true, checkmate: false },
  start: { position: 'standard' },
  clock: { increment: 'per-turn', passesFree: true, passEarnsIncrement: false },
  cube: { enabled: false, ownership: 'centered-last-taker', cap: 64 },
};

export const withRules = (patch: (r: Rules) => void, base: Rules = REFERENCE): Rules => {
  const r = structuredClone(base);
  patch(r);
  return r;
};

export const CHESS: Rules = withRules((r) => {
  r.dice = { count: 0, draw: 'fair' };
  r.turn = { structure: 'one-move', doublesAnyMove: false };
  r.maximum = 'none';
  r.check = 'orthodox';
  r.castling = { dice: 'none', attacks: 'orthodox', chess960: false, notation: 'king-two-squares' };
  r.enPassant = { window: 'first-micro-move' };
  r.draws = { agreement: true, midTurnOffers: false, moveCounterLimit: 100, castlingCounts: 1, turnLimit: null, repetition: 3, stalemate: true, insufficientMaterial: true };
  r.end = { kingCapture: false, checkmate: true };
});

export const WIKIPEDIA: Rules = withRules((r) => {
  r.dice = { count: 2, draw: 'fair' };
  r.turn = { structure: 'one-move', doublesAnyMove: true };
  r.maximum = 'none';
  r.check = 'orthodox';
  r.castling = { dice: 'king-or-rook', attacks: 'orthodox', chess960: false, notation: 'king-two-squares' };
  r.enPassant = { window: 'first-micro-move' };
  r.draws = { agreement: true, midTurnOffers: false, moveCounterLimit: 100, castlingCounts: 1, turnLimit: null, repetition: 3, stalemate: true, insufficientMaterial: true };
  r.end = { kingCapture: true, checkmate: true };
});

export const BRAINKING: Rules = withRules((r) => {
  r.dice = { count: 1, draw: 'movable-types' };
  r.turn = { structure: 'one-move', doublesAnyMove: false };
  r.maximum = 'none';
  r.castling = { dice: 'king', attacks: 'ignored', chess960: false, notation: 'king-two-squares' };
  r.enPassant = { window: 'first-micro-move' };
  r.promotion = { pieces: ['q', 'r', 'b', 'n'], die: 'die-piece', onKingDie: false };
  r.draws = { agreement: true, midTurnOffers: false, moveCounterLimit: null, castlingCounts: 1, turnLimit: null, repetition: null, stalemate: false, insufficientMaterial: false };
});
