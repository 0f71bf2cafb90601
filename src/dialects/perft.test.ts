import { describe, expect, it } from 'vitest';
import { chess960Fen, makeUci, parseDfen, perft, perftDivide, STANDARD_FEN } from '../core/index.js';
import { loadDialect, needs960, perftOptions } from './index.js';

const chess = loadDialect('chess');
if (!chess.ok) throw new Error('the chess dialect does not load');
const OPTS = perftOptions(chess.value.rules);

const count = (fen: string, depth: number): number => {
  const r = parseDfen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return perft(r.value.pos, depth, OPTS);
};

/** The public perft numbers of docs/rules.md §10.5, to the depths that stay around 200k nodes. */
const PUBLIC: Array<[string, string, number[]]> = [
  ['start', STANDARD_FEN, [20, 400, 8902, 197281]],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -', [48, 2039, 97862]],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -', [14, 191, 2812, 43238]],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -', [6, 264, 9467]],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ -', [44, 1486, 62379]],
  ['position 6', 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - -', [46, 2079, 89890]],
];

describe('chess control dialect: perft matches the public numbers', () => {
  for (const [name, fen, counts] of PUBLIC) {
    it(name, () => {
      counts.forEach((n, i) => expect(count(fen, i + 1), `depth ${i + 1}`).toBe(n));
    });
  }

  it('Chess960: Scharnagl 518 is the classic start, and a 960 position from the public list', () => {
    const s518 = chess960Fen(518);
    expect(s518.ok && count(s518.value, 3)).toBe(8902);
    // Chess960 perft table, position 1 (castling written Shredder-style).
    const fen = 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9';
    expect([1, 2, 3].map((d) => count(fen, d))).toEqual([21, 528, 12189]);
  });

  it('divide writes 960 castling king-takes-rook', () => {
    const r = parseDfen('1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1');
    if (!r.ok) throw new Error(r.error.message);
    expect(needs960(r.value.pos)).toBe(true);
    const moves = perftDivide(r.value.pos, 1, OPTS).map(([m]) => makeUci(m, 'king-takes-rook'));
    expect(moves).toContain('g1h1');
    expect(moves).toContain('g1b1');
    const std = parseDfen(STANDARD_FEN);
    expect(std.ok && needs960(std.value.pos)).toBe(false);
  });
});
