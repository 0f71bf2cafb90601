import { describe, expect, it } from 'vitest';
import { judgeTurn, legalFirstMoves, legalTurns } from '../api/rules.js';
import { type Role, uciMove } from '../core/index.js';
import { loadDialect } from '../dialects/index.js';
import type { Dialect } from '../dialects/resolve.js';
import { parseDialectDfen } from './dialect-position.js';
import { GameState } from './game.js';

/**
 * vchess.club's Dice (docs/rules.md §13): a pawn about to promote moves on a king die and
 * becomes a second king (`promotion.onKingDieBecomes: "king"`); the game ends when either
 * king of a side is captured. Expectations written from the site's code as §13 reads it.
 */
const dialect = (name: string, overrides: string[] = []): Dialect => {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(`${name}: ${d.error.map((p) => p.message).join('; ')}`);
  return d.value;
};
const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const K = 6;
const PAWN_ON_SEVENTH = '8/Pk6/8/8/8/8/8/4K3 w - - 0 5';

describe('a pawn promoted to a second king (promotion.onKingDieBecomes)', () => {
  const vchess = dialect('vchess-dice');

  it('on a king die the pawn becomes a king; on another piece die that piece; on a pawn die the free choice', () => {
    expect(must(legalFirstMoves(vchess, `${PAWN_ON_SEVENTH} K`))).toEqual(['a7a8k', 'e1d1', 'e1d2', 'e1e2', 'e1f1', 'e1f2']);
    expect(must(legalFirstMoves(vchess, `${PAWN_ON_SEVENTH} Q`))).toEqual(['a7a8q']);
    expect(must(legalFirstMoves(vchess, `${PAWN_ON_SEVENTH} P`))).toEqual(['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']);
    expect(must(judgeTurn(vchess, `${PAWN_ON_SEVENTH} Q`, ['a7a8k']))).toMatchObject({ legal: false, rule: 'promotion.not-allowed' });
    expect(must(judgeTurn(vchess, `${PAWN_ON_SEVENTH} P`, ['a7a8k']))).toMatchObject({ legal: false, rule: 'promotion.not-allowed' });
  });

  it('the other readings of a king die: none (BrainKing), or the free choice (onKingDie alone)', () => {
    const brainking = dialect('brainking-one-die');
    expect(must(legalFirstMoves(brainking, `${PAWN_ON_SEVENTH} K`))).not.toContain('a7a8k');
    expect(must(legalFirstMoves(brainking, `${PAWN_ON_SEVENTH} K`)).filter((m) => m.startsWith('a7'))).toEqual([]);
    const choice = dialect('vchess-dice', ['promotion.onKingDieBecomes=choice']);
    expect(must(legalFirstMoves(choice, `${PAWN_ON_SEVENTH} K`)).filter((m) => m.startsWith('a7'))).toEqual(['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']);
    expect(must(judgeTurn(brainking, `${PAWN_ON_SEVENTH} K`, ['a7a8k']))).toMatchObject({ legal: false, rule: 'promotion.not-allowed' });
  });

  it('a king capture on the last rank moves on the king die too, and ends the game', () => {
    const fen = '1k6/P7/8/8/8/8/8/4K3 w - - 0 5 K';
    expect(must(legalTurns(vchess, fen))).toContainEqual(['a7b8']);
    expect(must(judgeTurn(vchess, fen, ['a7b8']))).toMatchObject({ legal: true, kingCaptured: true });
  });

  it('capturing either king of a side ends the game (the variant\'s postPlay), and the second king moves on a king die', () => {
    const game = must(GameState.start(vchess.rules, PAWN_ON_SEVENTH));
    expect(game.playRecorded([K], ['a7a8k']).ok).toBe(true);
    expect(game.dfen()).toBe('K7/1k6/8/8/8/8/8/4K3 b - - 0 5');
    expect(game.outcome).toBeNull();
    // Black takes the new king: the game is over, as when the first one is taken.
    const taken = game.playRecorded([K], ['b7a8']);
    expect(taken).toMatchObject({ ok: true, kingCaptured: true });
    expect(game.outcome).toEqual({ result: 'black', reason: 'king_captured' });

    const two = 'K7/2k5/8/8/8/8/8/4K3 w - - 0 6 K';
    expect(must(legalFirstMoves(vchess, two))).toEqual(['a8a7', 'a8b7', 'a8b8', 'e1d1', 'e1d2', 'e1e2', 'e1f1', 'e1f2']);
    const original = must(GameState.start(vchess.rules, 'K7/8/8/8/8/8/3k4/4K3 b - - 0 6'));
    expect(original.playRecorded([K], ['d2e1'])).toMatchObject({ ok: true, kingCaptured: true });
    expect(original.outcome).toEqual({ result: 'black', reason: 'king_captured' });
  });

  it('two kings a side: only where a pawn may become a king; the one on its first rank castles, also after a search took the other back', () => {
    expect(parseDialectDfen(dialect('brainking-one-die').rules, 'K7/1k6/8/8/8/8/8/4K3 b - - 0 5')).toMatchObject({ ok: false, error: { code: 'fen.kings' } });
    const fen = 'r3k3/8/8/8/8/8/8/kR2K3 b q - 0 5';
    const pos = must(parseDialectDfen(vchess.rules, fen)).pos;
    expect(pos.kingSquare[1]).toBe(60);
    // The second black king steps and is taken back; White's rook takes it and is taken back.
    const step = uciMove(pos, 'a1a2');
    pos.make(step);
    pos.unmake(step);
    pos.turn = 0;
    const take = uciMove(pos, 'b1a1');
    pos.make(take);
    expect(pos.kingSquare[1]).toBe(-1);
    pos.unmake(take);
    pos.turn = 1;
    expect(pos.kingSquare[1]).toBe(60);
    const game = must(GameState.start(vchess.rules, fen));
    expect(game.legalFirstMicroMoves([K as Role]).map((m) => game.uci(m)).sort()).toEqual(['a1a2', 'a1b1', 'a1b2', 'e8c8', 'e8d7', 'e8d8', 'e8e7', 'e8f7', 'e8f8']);
  });

  it('the option is the die-piece rule\'s, in a game without check', () => {
    expect(loadDialect('brainking-one-die', ['promotion.onKingDieBecomes=king']).ok).toBe(false);
    expect(loadDialect('wikipedia-two-dice', ['promotion.die=die-piece', 'promotion.onKingDie=true', 'promotion.onKingDieBecomes=king']).ok).toBe(false);
    expect(loadDialect('brainking-one-die', ['promotion.onKingDie=true', 'promotion.onKingDieBecomes=king', 'check=none', 'end.checkmate=false', 'draws.stalemate=false']).ok).toBe(true);
  });
});
