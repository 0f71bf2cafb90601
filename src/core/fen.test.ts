import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeDfen, parseDfen, STANDARD_FEN } from './fen.js';
import { makeUci, parseUci, uciToMove } from './uci.js';

const parse = (t: string) => {
  const r = parseDfen(t);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};
const code = (t: string, limits = {}) => {
  const r = parseDfen(t, limits);
  return r.ok ? 'ok' : `${r.error.code}@${r.error.field}`;
};

describe('DFEN', () => {
  it('round-trips the start position with and without dice', () => {
    expect(makeDfen(parse(STANDARD_FEN).pos)).toBe(STANDARD_FEN);
    const d = parse(`${STANDARD_FEN} PNB`);
    expect(d.dice).toEqual([1, 2, 3]);
    expect(makeDfen(d.pos, d.dice)).toBe(`${STANDARD_FEN} PNB`);
  });
  it('reads several en passant squares in any order and writes them in square order', () => {
    const fen = 'rnbqkbnr/1p1p1ppp/8/pPpPp3/P3P3/2N2Q1N/2P2PPP/1RB1KB1R w Kkq e6a6c6 0 1';
    expect(makeDfen(parse(fen).pos)).toBe(fen.replace('e6a6c6', 'a6c6e6'));
  });
  it('reads dice letters in any case and order, writes them by piece value cased by side', () => {
    const d = parse('4k3/8/8/8/8/8/8/4K3 b - - 0 1 KPn');
    expect(d.dice).toEqual([6, 1, 2]);
    expect(makeDfen(d.pos, d.dice)).toBe('4k3/8/8/8/8/8/8/4K3 b - - 0 1 pnk');
  });
  it('accepts 4-field FEN and "-" dice', () => {
    expect(parse('4k3/8/8/8/8/8/8/4K3 w - -').pos.fullmove).toBe(1);
    expect(parse('4k3/8/8/8/8/8/8/4K3 w - - 0 1 -').dice).toBeNull();
  });
  it('reads X-FEN and Shredder-FEN castling and writes either', () => {
    const p = parse('1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1').pos;
    expect(makeDfen(p, null, { castling: 'shredder' })).toContain(' GBgb ');
    expect(makeDfen(p)).toContain(' KQkq ');
  });
  it('a position without a king is a finished game, not an error', () => {
    expect(code('8/8/8/8/8/8/8/4K3 w - - 0 1')).toBe('ok');
  });
  it('names the offending field', () => {
    expect(code('8/8/8/8/8/8/8 w - - 0 1')).toBe('fen.board@board');
    expect(code('4k3/8/8/8/8/8/8/3KK3 w - - 0 1')).toBe('fen.kings@board');
    expect(code('4k3/8/8/8/8/8/8/4K3 x - - 0 1')).toBe('fen.turn@turn');
    expect(code('4k3/8/8/8/8/8/8/4K3 w K - 0 1')).toBe('fen.castling@castling');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - e4 0 1')).toBe('fen.en-passant@en-passant');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - - x 1')).toBe('fen.halfmove@halfmove');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - - 200 1', { maxHalfmove: 150 })).toBe('fen.halfmove@halfmove');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - - 0 0')).toBe('fen.fullmove@fullmove');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - - 0 1 PXQ')).toBe('fen.dice@dice');
    expect(code('4k3/8/8/8/8/8/8/4K3 w - - 0 1 PNBR', { maxDice: 3 })).toBe('fen.dice-count@dice');
    expect(code('P3k3/8/8/8/8/8/8/4K3 w - - 0 1')).toBe('fen.board@board');
  });
  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(typeof parseDfen(s).ok).toBe('boolean');
      }),
    );
  });
});

describe('UCI', () => {
  const start = () => parse(STANDARD_FEN).pos;
  it('parses moves, promotions and upper-case squares', () => {
    expect(parseUci('E2E4')).toMatchObject({ ok: true, value: { from: 12, to: 28, promotion: 0 } });
    expect(parseUci('e7e8n')).toMatchObject({ ok: true, value: { promotion: 2 } });
    // A king: vchess.club's Dice lets a pawn become one (whether a dialect allows it is the rules' question).
    expect(parseUci('e7e8k')).toMatchObject({ ok: true, value: { promotion: 6 } });
  });
  it('gives reason codes for text that is not a move', () => {
    const c = (t: string) => (parseUci(t).ok ? 'ok' : (parseUci(t) as { error: { code: string } }).error.code);
    expect(c('e2')).toBe('uci.syntax');
    expect(c('e2e9')).toBe('uci.bad-square');
    expect(c('e7e8p')).toBe('uci.bad-promotion');
    expect(c('e2e2')).toBe('uci.null-move');
    const empty = uciToMove(start(), 'e4e5');
    expect(empty.ok ? 'ok' : empty.error.code).toBe('uci.empty-square');
  });
  it('reads castling as the king two squares or king-takes-rook and writes both', () => {
    const p = parse('4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1').pos;
    const a = uciToMove(p, 'e1g1');
    const b = uciToMove(p, 'e1h1');
    expect(a.ok && b.ok && a.value === b.value).toBe(true);
    if (a.ok) {
      expect(makeUci(a.value)).toBe('e1g1');
      expect(makeUci(a.value, 'king-takes-rook')).toBe('e1h1');
    }
  });
});
