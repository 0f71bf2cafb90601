import { describe, expect, it } from 'vitest';
import { legalMoves } from './legal.js';
import { makeUci, uciToMove } from './uci.js';
import { parseDfen, STANDARD_FEN } from './fen.js';
import type { Position } from './position.js';
import { makeSan, parseSan } from './san.js';

function position(fen: string = STANDARD_FEN): Position {
  const r = parseDfen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.pos;
}

/** Plays SAN moves (null = the side to move passes), checking SAN → move → SAN on each. */
function replay(pos: Position, moves: Array<string | null>, expectSan: (text: string) => string = (t) => t): string[] {
  const written: string[] = [];
  for (const text of moves) {
    if (text === null) {
      pos.endTurn();
      continue;
    }
    const legal = legalMoves(pos);
    const r = parseSan(pos, text, legal);
    if (!r.ok) throw new Error(`${text}: ${r.error.code} ${r.error.message}`);
    const san = makeSan(pos, r.value, legal);
    expect(san, text).toBe(expectSan(text));
    written.push(san);
    pos.make(r.value);
    pos.endTurn();
  }
  return written;
}

describe('SAN on real games', () => {
  it('docs/rules.md §10.3 sample game (passes while in check) ends 5.Ng5#', () => {
    const pos = position();
    // The seed writes 4.Nh3 without "+": Black was still in check from 3.Bxf7+ after passing.
    // makeSan marks the position after the move, so it writes Nh3+.
    const moves = ['e4', 'Nc6', 'Bc4', 'Rb8', 'Bxf7+', null, 'Nh3', null, 'Ng5#'];
    const written = replay(pos, moves, (t) => (t === 'Nh3' ? 'Nh3+' : t));
    expect(written).toEqual(['e4', 'Nc6', 'Bc4', 'Rb8', 'Bxf7+', 'Nh3+', 'Ng5#']);
  });

  it('docs/rules.md §10.3: at White\'s 4th turn Bxe8 takes the king, Qf3# and Qh5# mate', () => {
    const pos = position();
    replay(pos, ['e4', 'Nc6', 'Bc4', 'Rb8', 'Bxf7+', null]);
    const legal = legalMoves(pos);
    const sans = legal.map((m) => makeSan(pos, m, legal));
    expect(sans).toContain('Bxe8');
    expect(sans).toContain('Qf3#');
    expect(sans).toContain('Qh5#');
  });

  it('the Opera game round-trips (captures, Nbd7, O-O-O, checks, mate)', () => {
    const pos = position();
    const game =
      'e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#';
    expect(replay(pos, game.split(' ')).join(' ')).toBe(game);
  });

  it('promotion, en passant, rank and square disambiguation', () => {
    expect(sanOf('3r3k/4P3/8/8/8/8/8/K7 w - - 0 1', 'e7d8n')).toBe('exd8=N');
    expect(sanOf('3r3k/4P3/8/8/8/8/8/K7 w - - 0 1', 'e7e8q')).toBe('e8=Q+');
    expect(sanOf('k7/8/8/3pP3/8/8/8/K7 w - d6 0 1', 'e5d6')).toBe('exd6');
    expect(sanOf('7k/8/8/8/8/R7/8/R5K1 w - - 0 1', 'a1a2')).toBe('R1a2');
    expect(sanOf('8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1', 'h4e1')).toBe('Qh4e1');
    expect(sanOf('8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1', 'e4e1')).toBe('Qee1');
    expect(sanOf('8/8/1k6/8/4Q2Q/8/K7/7Q w - - 0 1', 'h1e1')).toBe('Q1e1');
    expect(sanOf('r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', 'e8c8')).toBe('O-O-O');
  });

  it('Chess960 castling is O-O / O-O-O by the rook side', () => {
    const pos = position('1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1');
    const legal = legalMoves(pos);
    const sans = legal.map((m) => [makeUci(m, 'king-takes-rook'), makeSan(pos, m, legal)]);
    expect(sans).toContainEqual(['g1h1', 'O-O']);
    expect(sans).toContainEqual(['g1b1', 'O-O-O']);
    const r = parseSan(pos, 'O-O-O', legal);
    expect(r.ok && makeUci(r.value, 'king-takes-rook')).toBe('g1b1');
  });
});

function sanOf(fen: string, uci: string): string {
  const pos = position(fen);
  const legal = legalMoves(pos);
  const m = legal.find((x) => makeUci(x) === uci);
  if (m === undefined) throw new Error(`${uci} not legal in ${fen}`);
  const san = makeSan(pos, m, legal);
  const back = parseSan(pos, san, legal);
  expect(back.ok && back.value).toBe(m);
  return san;
}

describe('parseSan', () => {
  const start = position();
  const legal = legalMoves(start);

  it('tolerates x, +, #, !?, 0-0, e.p., long algebraic', () => {
    const ok = (text: string): string => {
      const r = parseSan(start, text, legal);
      if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
      return makeUci(r.value);
    };
    expect(ok('e4!?')).toBe('e2e4');
    expect(ok('Nf3+')).toBe('g1f3');
    expect(ok('Ng1f3')).toBe('g1f3');
    expect(ok('e2-e4')).toBe('e2e4');
    expect(ok('Nc3#')).toBe('b1c3');

    const castle = position('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    const cl = legalMoves(castle);
    const uci = (t: string): string => {
      const r = parseSan(castle, t, cl);
      return r.ok ? makeUci(r.value) : r.error.code;
    };
    expect(uci('0-0')).toBe('e1g1');
    expect(uci('O-O-O+')).toBe('e1c1');
    expect(uci('o-o')).toBe('e1g1');

    const ep = position('k7/8/8/3pP3/8/8/8/K7 w - d6 0 1');
    const r = parseSan(ep, 'exd6 e.p.', legalMoves(ep));
    expect(r.ok && makeUci(r.value)).toBe('e5d6');
  });

  it('gives reason codes', () => {
    const code = (pos: Position, text: string, moves = legalMoves(pos)): string => {
      const r = parseSan(pos, text, moves);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code(start, 'Z9')).toBe('san.syntax');
    expect(code(start, 'Nf8=Q')).toBe('san.syntax');
    expect(code(start, '')).toBe('san.syntax');
    expect(code(start, 'Nf5')).toBe('san.no-match');
    expect(code(start, 'e5')).toBe('san.no-match');
    expect(code(start, 'O-O')).toBe('san.no-match');
    const twoKnights = position('k7/8/8/8/8/5N2/8/KN6 w - - 0 1');
    expect(code(twoKnights, 'Nd2')).toBe('san.ambiguous');
    expect(code(twoKnights, 'Nbd2')).toBe('ok');
    // A missing promotion letter is read when only one promotion is allowed (the BrainKing die rule).
    const promo = position('7k/P7/8/8/8/8/8/K7 w - - 0 1');
    expect(code(promo, 'a8')).toBe('san.ambiguous');
    const onlyKnight = legalMoves(promo).filter((m) => makeUci(m) === 'a7a8n');
    expect(code(promo, 'a8', onlyKnight)).toBe('ok');
    expect(code(promo, 'a8=Q', onlyKnight)).toBe('san.no-match');
  });

  it('reads a pawn taking the king on its last rank with or without a promotion letter (no promotion)', () => {
    const pos = position('4k3/3P4/8/8/8/8/8/K7 w - - 0 1');
    const moves = legalMoves(pos);
    for (const text of ['dxe8', 'dxe8=Q', 'dxe8N', 'de8']) {
      const r = parseSan(pos, text, moves);
      expect(r.ok && makeUci(r.value), text).toBe('d7e8');
    }
    const lettered = uciToMove(pos, 'd7e8q');
    expect(lettered.ok && makeUci(lettered.value)).toBe('d7e8');
    expect(lettered.ok && makeSan(pos, lettered.value)).toMatch(/^dxe8/);
  });
});
