/**
 * The boards of a record's per-turn FENs as its reader read them: the reader's syntax check
 * already walks every FEN's board field, so it writes the squares down on the way, and the
 * judge compares 64 numbers instead of reading the text again (the judge's `fen_after` test
 * runs for every turn). Kept beside the record (a WeakMap), never in it: records are written
 * and sent as they are, and a record rebuilt or made by hand simply has none (the judge then
 * reads the text, as it does for every FEN the fast check was unsure of).
 */
export class FenBoards {
  /** Turn t's board at t × 64, a1 first: the core's board values (white positive, pawn 1 … king 6), 0 empty. */
  readonly squares: Int8Array;
  /** The `fenAfter` text each board was read from; null where none was read (the judge reads the text). */
  readonly fens: (string | null)[];

  /** The same bytes as words, 16 a board. */
  private readonly words: Int32Array;

  constructor(turns: number) {
    this.words = new Int32Array(turns * 16);
    this.squares = new Int8Array(this.words.buffer);
    this.fens = new Array<string | null>(turns).fill(null);
  }

  /**
   * Is turn `t`'s board, read from exactly this text, the board whose bytes are `boardWords`
   * (16 words, see Position.boardWords)? Undefined: none was read, ask the text.
   */
  matches(t: number, fen: string, boardWords: Int32Array): boolean | undefined {
    if (this.fens[t] !== fen) return undefined;
    const words = this.words;
    const at = t * 16;
    for (let w = 0; w < 16; w++) if (words[at + w] !== boardWords[w]) return false;
    return true;
  }
}

const BOARDS = new WeakMap<object, FenBoards>();

/** The boards read with this record (or its reader's input), if any. */
export const fenBoardsOf = (record: object): FenBoards | undefined => BOARDS.get(record);

/** Keeps `boards` beside `record` (the reader's input, then the finished record). */
export function keepFenBoards<T extends object>(record: T, boards: FenBoards | undefined): T {
  if (boards !== undefined) BOARDS.set(record, boards);
  return record;
}
