import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDfen, STANDARD_FEN } from './fen.js';
import { type Move } from './move.js';
import { ALL_ROLES, generateMoves, generatePieceMoves, type GenOptions, isPieceMove, STANDARD_PROMOTIONS } from './movegen.js';
import { pieceSquares, type Position } from './position.js';

const position = (fen: string): Position => {
  const r = parseDfen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.pos;
};

/** Every move encoding from a square: all targets, promotions 0–7, kinds 0–3. */
function everyEncoding(from: number): Move[] {
  const out: Move[] = [];
  for (let to = 0; to < 64; to++) for (let promo = 0; promo < 8; promo++) for (let kind = 0; kind < 4; kind++) out.push(from | (to << 6) | (promo << 12) | (kind << 15));
  return out;
}

/** isPieceMove against membership in generatePieceMoves, for every piece and encoding. */
function agrees(pos: Position, opts: GenOptions): void {
  const buf: Move[] = [];
  for (let from = 0; from < 64; from++) {
    const listed = new Set(buf.slice(0, generatePieceMoves(pos, from, opts, buf, 0)));
    if (pos.board[from] === 0) continue;
    const disagree = everyEncoding(from).filter((m) => isPieceMove(pos, m, opts) !== listed.has(m));
    expect(disagree, `moves from ${from} isPieceMove and the list disagree on`).toEqual([]);
  }
}

/** The piece sets against the board. */
function setsMatch(pos: Position): void {
  for (let piece = -6; piece <= 6; piece++) {
    if (piece === 0) continue;
    let low = 0;
    let high = 0;
    for (let sq = 0; sq < 64; sq++) if (pos.board[sq] === piece) sq < 32 ? (low |= 1 << sq) : (high |= 1 << (sq - 32));
    expect([pieceSquares(pos, piece, false), pieceSquares(pos, piece, true)]).toEqual([low, high]);
  }
}

const OPTIONS: GenOptions[] = [
  { roles: ALL_ROLES, enPassant: true, promotions: STANDARD_PROMOTIONS, castling: false, castlingOrthodox: false },
  { roles: ALL_ROLES, enPassant: false, promotions: (1 << 5) | (1 << 2), castling: false, castlingOrthodox: false },
];

describe('move generation', () => {
  it('isPieceMove says exactly which moves generatePieceMoves lists, along random games', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 40, maxLength: 120 }), (picks) => {
        const pos = position(STANDARD_FEN);
        const buf: Move[] = [];
        for (const pick of picks) {
          for (const opts of OPTIONS) agrees(pos, opts);
          setsMatch(pos);
          const n = generateMoves(pos, pos.turn, OPTIONS[0], buf, 0);
          if (n === 0 || pos.kingSquare[0] < 0 || pos.kingSquare[1] < 0) break;
          pos.make(buf[pick % n]);
          if (pick % 3 !== 0) pos.endTurn();
        }
      }),
      { numRuns: 8 },
    );
  });
  it('isPieceMove on promotions, en passant, king captures by pawns and a pawn left on the last rank', () => {
    for (const fen of [
      '4k3/1P4P1/8/3pP3/8/8/1p4p1/4K3 w - d6 0 1',
      'r3k2r/1P6/8/8/2pP4/8/6p1/R3K2R b KQkq d3 0 1',
      '3P4/8/8/8/8/8/8/4K3 w - - 0 1',
      'k6K/8/8/8/8/8/8/8 w - - 0 1',
      '2k5/1P6/8/8/8/8/5p2/4K3 w - - 0 1',
    ]) {
      const pos = position(fen);
      for (const opts of OPTIONS) agrees(pos, opts);
    }
  });
  it('make and unmake keep the piece sets in step with the board (castling, en passant, promotion)', () => {
    const pos = position('r3k2r/1P6/8/8/2pP4/8/6p1/R3K2R b KQkq d3 0 1');
    const buf: Move[] = [];
    const n = generateMoves(pos, pos.turn, OPTIONS[0], buf, 0);
    for (const m of buf.slice(0, n)) {
      pos.make(m);
      setsMatch(pos);
      pos.unmake(m);
      setsMatch(pos);
    }
  });
});
