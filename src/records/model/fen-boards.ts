/**
 * The boards of a record's per-turn FENs as its reader read them: the reader's syntax check
 * already walks every FEN's board field, so it writes the squares down on the way, and the
 * judge compares 64 numbers instead of reading the text again (the judge's `fen_after` test
 * runs for every turn). Held by the record out of sight (a property that is not enumerable:
 * records are written, compared and sent as they are), and a record rebuilt or made by hand
 * simply has none: the judge then reads the text, as it does for every FEN the fast check was
 * unsure of. A board is used only for the very text it was read from, so a copy that keeps
 * them (a record's turns changed in place) is judged right too.
 */
export class FenBoards {
  /** Turn t's board at `board(t)`, a1 first: the core's board values (white positive, pawn 1 … king 6), 0 empty. */
  readonly squares: Int8Array;
  /** The `fenAfter` text each board was read from; null where none was read (the judge reads the text). */
  readonly fens: (string | null)[];
  private readonly arena: Arena;
  private readonly at: number;
  private readonly round: number;

  /**
   * Boards for `turns` turns. With `zeroed` false the squares are left as the arena has them:
   * for a reader that writes every square of each board it reads (and none of the others is read).
   */
  constructor(turns: number, zeroed = true) {
    const room = turns * 64;
    // A range of this thread's arena, used in turn by the records as they are read: records
    // are judged as soon as they are read, and a record's own typed array (its own backing
    // store, zeroed) cost more than the judge saves. A record judged after the arena came
    // round to its range again finds its boards gone (`round`) and reads the text instead.
    let arena = shared;
    if (room > arena.squares.length) arena = newArena(room);
    else if (arena.next + room > arena.squares.length) {
      arena.next = 0;
      arena.round++;
    }
    this.arena = arena;
    this.squares = arena.squares;
    this.at = arena.next;
    this.round = arena.round;
    arena.next += room;
    if (zeroed) arena.squares.fill(0, this.at, this.at + room);
    this.fens = new Array<string | null>(turns).fill(null);
  }

  /** Room for at most `turns` boards, not zeroed: for a reader that writes every square of each board it names a text for (see `keep`, `copy`). */
  static upTo(turns: number): FenBoards {
    return new FenBoards(turns, false);
  }

  /** Keeps the first `turns` boards, and gives the arena back the room past them (when nothing took room after it). */
  keep(turns: number): void {
    if (this.arena.round === this.round && this.arena.next === this.at + this.fens.length * 64) this.arena.next = this.at + turns * 64;
    this.fens.length = turns;
  }

  /**
   * Turn `t`'s board: the 64 squares at `from` in `squares` (a multiple of 4 into a buffer of its
   * own), read from the text `fen`. Four squares at a time: a turn's board is copied for every turn.
   */
  copy(t: number, squares: Int8Array, from: number, fen: string): void {
    const words = this.arena.words;
    const to = (this.at >> 2) + t * 16;
    if (squares.byteOffset === 0 && (from & 3) === 0) {
      const source = wordsOf(squares);
      for (let w = 0, f = from >> 2; w < 16; w++) words[to + w] = source[f + w];
    } else this.squares.set(squares.subarray(from, from + 64), this.at + t * 64);
    this.fens[t] = fen;
  }

  /** Where turn `t`'s 64 squares start in `squares`. */
  board(t: number): number {
    return this.at + t * 64;
  }

  /**
   * Is turn `t`'s board, read from exactly this text, the board whose bytes are `boardWords`
   * (16 words, see Position.boardWords)? Undefined: none was read (or it is gone), ask the text.
   */
  matches(t: number, fen: string, boardWords: Int32Array): boolean | undefined {
    if (this.fens[t] !== fen || this.arena.round !== this.round) return undefined;
    const words = this.arena.words;
    const at = (this.at >> 2) + t * 16;
    for (let w = 0; w < 16; w++) if (words[at + w] !== boardWords[w]) return false;
    return true;
  }

  /** The piece on square `sq` (a1 = 0) of turn `t`'s board read from exactly this text; undefined: none was read (or it is gone). */
  pieceAt(t: number, fen: string, sq: number): number | undefined {
    if (this.fens[t] !== fen || this.arena.round !== this.round) return undefined;
    return this.squares[this.at + t * 64 + sq];
  }
}

/**
 * Squares (an array at the start of a buffer of its own) as 32-bit words, four squares a word:
 * a function that keeps the last view it made, for a reader that reuses one scratch array.
 */
export function wordViews(): (squares: Int8Array) => Int32Array {
  let of: Int8Array | null = null;
  let words: Int32Array = new Int32Array(0);
  return (squares) => {
    if (squares !== of) {
      of = squares;
      words = new Int32Array(squares.buffer, 0, squares.length >> 2);
    }
    return words;
  };
}
const wordsOf = wordViews();

/** Memory for boards, handed out in ranges from the start again once it is full (each time a new `round`). */
interface Arena {
  squares: Int8Array;
  words: Int32Array;
  next: number;
  round: number;
}
const ARENA_BYTES = 1 << 20;
const newArena = (bytes: number): Arena => {
  const words = new Int32Array(bytes >> 2);
  return { squares: new Int8Array(words.buffer), words, next: 0, round: 0 };
};
/** This thread's arena (records longer than it get one of their own). */
const shared: Arena = newArena(ARENA_BYTES);

/** Where a record (or its reader's input) holds its boards: a property no writer, copy or comparison sees (not enumerable). */
const BOARDS = Symbol('fen boards');

/** The boards read with this record (or its reader's input), if any. */
export const fenBoardsOf = (record: object): FenBoards | undefined => (record as { [BOARDS]?: FenBoards })[BOARDS];

/** Keeps `boards` with `record` (the reader's input, then the finished record). */
export function keepFenBoards<T extends object>(record: T, boards: FenBoards | undefined): T {
  if (boards !== undefined) Object.defineProperty(record, BOARDS, { value: boards, enumerable: false });
  return record;
}
