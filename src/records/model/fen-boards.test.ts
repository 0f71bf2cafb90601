import { describe, expect, it } from 'vitest';
import { FenBoards } from './fen-boards.js';

describe('FenBoards.copy', () => {
  const board = Int8Array.from({ length: 64 }, (_, i) => ((i * 7) % 13) - 6);
  it('copies a board from a buffer of its own (a word at a time) and from anywhere else (a square at a time)', () => {
    const own = new Int8Array(192);
    own.set(board, 128);
    const elsewhere = new Int8Array(new ArrayBuffer(200), 3, 192);
    elsewhere.set(board, 64);
    const boards = FenBoards.upTo(3);
    boards.copy(0, own, 128, 'first');
    boards.copy(2, elsewhere, 64, 'third');
    for (const [t, fen] of [[0, 'first'], [2, 'third']] as const) {
      expect(Array.from(boards.squares.subarray(boards.board(t), boards.board(t) + 64))).toEqual(Array.from(board));
      expect(boards.pieceAt(t, fen, 63)).toBe(board[63]);
    }
    // A board not copied names no text: the judge reads the text instead.
    expect(boards.fens[1]).toBeNull();
    expect(boards.pieceAt(1, 'first', 0)).toBeUndefined();
  });
});
