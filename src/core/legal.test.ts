import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inCheck } from './attacks.js';
import { chess960Fen } from './chess960.js';
import { parseDfen, STANDARD_FEN } from './fen.js';
import { isOrthodoxPieceMove, legalMoves, ORTHODOX } from './legal.js';
import { CASTLE, type Move, moveKind } from './move.js';
import { generateMoves } from './movegen.js';
import type { Position } from './position.js';

describe('isOrthodoxPieceMove', () => {
  it('is membership in legalMoves (castling aside) for every pseudo-legal move of either side, over random games', () => {
    let s = 99;
    const rnd = (): number => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648;
    };
    let checked = 0;
    for (let g = 0; g < 30; g++) {
      const parsed = parseDfen(STANDARD_FEN);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const pos = parsed.value.pos;
      for (let ply = 0; ply < 160; ply++) {
        const legal = legalMoves(pos);
        const listed = new Set(legal.filter((m) => moveKind(m) !== CASTLE));
        for (const color of [0, 1] as const) {
          const pseudo: Move[] = [];
          const n = generateMoves(pos, color, ORTHODOX, pseudo, 0);
          for (let i = 0; i < n; i++) {
            expect(isOrthodoxPieceMove(pos, pseudo[i])).toBe(listed.has(pseudo[i]));
            checked++;
          }
        }
        expect(isOrthodoxPieceMove(pos, -1)).toBe(false);
        if (legal.length === 0) break;
        pos.make(legal[Math.floor(rnd() * legal.length)]);
        pos.endTurn();
      }
    }
    expect(checked).toBeGreaterThan(50000);
  });

  // The move played and the king looked at: what the shortcut off the line through the piece must agree with.
  const played = (pos: Position, m: Move): boolean => {
    const mover = pos.turn;
    pos.make(m);
    const bad = inCheck(pos, mover);
    pos.unmake(m);
    return !bad;
  };

  it('agrees with playing the move, pinned pieces included, over random games from Chess960 starts', () => {
    let refused = 0;
    let checks = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 959 }), fc.array(fc.nat(), { minLength: 40, maxLength: 120 }), (n, picks) => {
        const fen = chess960Fen(n);
        if (!fen.ok) throw new Error(fen.error.message);
        const parsed = parseDfen(fen.value);
        if (!parsed.ok) throw new Error(parsed.error.message);
        const pos = parsed.value.pos;
        for (const pick of picks) {
          const pseudo: Move[] = [];
          const count = generateMoves(pos, pos.turn, ORTHODOX, pseudo, 0);
          if (inCheck(pos, pos.turn)) checks++;
          const legal: Move[] = [];
          for (let i = 0; i < count; i++) {
            const m = pseudo[i];
            if (moveKind(m) === CASTLE) continue;
            const want = played(pos, m);
            expect(isOrthodoxPieceMove(pos, m)).toBe(want);
            if (want) legal.push(m);
            else refused++;
          }
          if (legal.length === 0) return;
          pos.make(legal[pick % legal.length]);
          pos.endTurn();
        }
      }),
      { numRuns: 60, seed: 960 },
    );
    // The random games reached both kinds of position the shortcut leaves or refuses.
    expect(refused).toBeGreaterThan(100);
    expect(checks).toBeGreaterThan(20);
  });
});
