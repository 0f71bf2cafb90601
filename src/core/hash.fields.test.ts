import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Board, fileOf, readFen, writeFen } from '../test-support/oracle/board.js';
import { random, randomPlay, startBoard, withTarget } from '../test-support/oracle/positions.js';
import { parseDfen } from './fen.js';
import { positionKey } from './hash.js';
import { CASTLING_KEYS, EP_KEYS, LANES, PIECE_KEYS, TURN_KEY } from './zobrist-keys.js';

/**
 * positionKey held to its definition built from a FEN's fields alone (read by the test
 * oracle's own board, not the core's): every piece on its square, the side to move, each
 * castling right (by rook file) and each en passant target (by file and side).
 */
const ROLES = 'pnbrqk';
function keyOfFields(b: Board): number {
  let a = 0;
  let c = 0;
  const mix = (table: Int32Array, i: number): void => {
    a ^= table[i * LANES];
    c ^= table[i * LANES + 1];
  };
  b.squares.forEach((piece, sq) => {
    if (piece === '') return;
    const role = ROLES.indexOf(piece.toLowerCase()) + 1;
    mix(PIECE_KEYS, sq * 13 + (piece < 'a' ? role : -role) + 6);
  });
  if (b.turn === 'b') mix(TURN_KEY, 0);
  for (const r of b.rights) mix(CASTLING_KEYS, r.rookFile + (r.side === 'w' ? 0 : 8));
  for (const t of b.targets) mix(EP_KEYS, fileOf(t.square) + (t.side === 'w' ? 0 : 8));
  return a * 0x4000000 + c;
}

const coreKey = (fen: string): number => {
  const r = parseDfen(fen);
  if (!r.ok) throw new Error(`${fen}: ${r.error.message}`);
  return positionKey(r.value.pos);
};

/** A position from random play (classic or Chess960), often with en passant targets. */
const positions = fc.tuple(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 40 }), fc.boolean()).map(([seed, turns, is960]) => {
  const rng = random(seed);
  let b = randomPlay(startBoard(is960 ? seed % 960 : null), turns, rng);
  if (rng() < 0.5) b = withTarget(b, rng);
  return b;
});

describe('positionKey', () => {
  it('is the key defined from the position\'s fields', () => {
    fc.assert(
      fc.property(positions, (b) => {
        const fen = writeFen(b);
        expect(coreKey(fen), fen).toBe(keyOfFields(readFen(fen)));
      }),
      { numRuns: 2000 },
    );
  });

  it('differs for positions that differ only in a castling right, an en passant target or the side to move', () => {
    let rights = 0;
    let targets = 0;
    fc.assert(
      fc.property(positions, fc.nat(), (b, k) => {
        const key = coreKey(writeFen(b));
        // The side to move, on a board without targets (whose meaning depends on it).
        const still: Board = { ...b, targets: [] };
        expect(coreKey(writeFen({ ...still, turn: b.turn === 'w' ? 'b' : 'w' }))).not.toBe(coreKey(writeFen(still)));
        const variants: Board[] = [];
        if (b.rights.length > 0) {
          rights++;
          variants.push({ ...b, rights: b.rights.filter((_, i) => i !== k % b.rights.length) });
        }
        if (b.targets.length > 0) {
          targets++;
          variants.push({ ...b, targets: b.targets.filter((_, i) => i !== k % b.targets.length) });
        }
        for (const v of variants) {
          // One right or one target fewer than b, the rest the same.
          expect(coreKey(writeFen(v)), `${writeFen(b)} vs ${writeFen(v)}`).not.toBe(key);
        }
      }),
      { numRuns: 2000 },
    );
    expect(rights).toBeGreaterThan(500);
    expect(targets).toBeGreaterThan(300);
  });
});
