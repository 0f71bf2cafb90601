import { createRequire } from 'node:module';
import { CASTLE, capturesKingOnLastRank, chess960Number, KING, makeUci, moveFrom, moveKind, movePromotion, moveTo, PAWN, parseDfen, type Position, uciMove } from '../../core/index.js';
import { squareOfCodes } from '../notation/squares.js';
import { CANONICAL_UCI } from '../notation/uci.js';
import { fail } from '../problems.js';
import { checkedRecord } from './checked-record.js';
import { fenBoardsOf, keepFenBoards } from './fen-boards.js';
import { type GameRecord, type GameRecordInput, recordSchemas } from './game-record.js';
import { repairRecordingFaults } from './recording-faults.js';

/**
 * The last step of every reader: castling and king-capture notation, Chess960 start detection
 * (board bookkeeping only, no legality), then the schema (checked by hand; zod words
 * a failure, naming the field path, so the unreadable entry points at it).
 */
export function finaliseRecord(input: GameRecordInput, notes: Set<string>): GameRecord {
  if (input.chess960 === undefined || input.chess960 === null) {
    const n = detectChess960(input.startFen);
    if (n !== null) input.chess960 = n;
  }
  repairRecordingFaults(input, notes);
  normaliseSpellings(input, notes);
  input.notes = notes.size === 0 && (input.notes === undefined || input.notes.length === 0) ? [] : [...new Set([...(input.notes ?? []), ...notes])].sort();
  return keepFenBoards(validate(input), fenBoardsOf(input));
}

/** The schema: the hand-written check, equal to zod's where it answers; zod for the rest and for the wording. */
export function validate(input: unknown): GameRecord {
  return checkedRecord(input) ?? validateWithZod(input);
}

/**
 * zod, for the records the hand-written check leaves to it: zod's CommonJS entry is loaded
 * (synchronously) only when a thread meets the first such record, unless the thread has the
 * schemas already (game-record-schema.ts): worker threads that judge good records load no zod.
 */
const zodGameRecord = () => recordSchemas(() => (createRequire(import.meta.url)('zod') as typeof import('zod')).z).GameRecord;

/** zod validation with the first issue as a sentence. */
export function validateWithZod(input: unknown): GameRecord {
  const parsed = zodGameRecord().safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue.path.join('.');
  let v: unknown = input;
  for (const k of issue.path) v = v === null || typeof v !== 'object' ? undefined : (v as Record<PropertyKey, unknown>)[k as PropertyKey];
  if (v === undefined) fail('record.missing-field', `field "${path}" is missing`);
  fail('record.bad-field', `field "${path}": ${issue.message}`);
}

/** Quick checks of a native record beyond its schema: the start FEN and the move syntax. */
const goodStarts = new Set<string>();

/** Has this start FEN been read (and found good) before? Corpora share a few start positions. */
export const knownStart = (fen: string): boolean => goodStarts.has(fen);

export function checkNative(record: GameRecord): void {
  // Corpora share a few start positions: each is parsed once.
  if (!goodStarts.has(record.startFen)) {
    const start = parseDfen(record.startFen);
    if (!start.ok) fail('record.bad-fen', `startFen "${record.startFen}" is not a FEN: ${start.error.message}`);
    if (goodStarts.size > 4096) goodStarts.clear();
    goodStarts.add(record.startFen);
  }
  for (let t = 0; t < record.turns.length; t++) {
    for (const m of record.turns[t].moves) {
      if (!CANONICAL_UCI.test(m)) fail('record.bad-move', `turn ${t + 1}: "${m}" is not a lower-case UCI move`, record.turns[t].location);
    }
  }
}

/** Start positions by FEN, parsed once (corpora share a few); each use gets a copy. Null: not a position. */
const starts = new Map<string, Position | null>();
/** The shared start position (not to be played on: see `clone`). */
function startPosition(fen: string): Position | null {
  let pos = starts.get(fen);
  if (pos === undefined) {
    const parsed = parseDfen(fen);
    pos = parsed.ok ? parsed.value.pos : null;
    if (starts.size > 4096) starts.clear();
    starts.set(fen, pos);
  }
  return pos;
}

const back960 = new Map<string, number>();
const CLASSIC_BOARD = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
/** The answers by start FEN (corpora share a few start positions): each is worked out once. */
const chess960ByFen = new Map<string, number | null>();

/** Start number of a Chess960 start other than the classic one (518), else null. */
export function detectChess960(fen: string): number | null {
  // The classic start, nearly every record's: no splitting, no lookup.
  if (fen.startsWith(CLASSIC_BOARD) && (fen.length === CLASSIC_BOARD.length || fen.charCodeAt(CLASSIC_BOARD.length) === 32)) return null;
  let n = chess960ByFen.get(fen);
  if (n === undefined) {
    n = chess960Of(fen);
    if (chess960ByFen.size > 4096) chess960ByFen.clear();
    chess960ByFen.set(fen, n);
  }
  return n;
}

function chess960Of(fen: string): number | null {
  const board = fen.trim().split(/\s+/)[0] ?? '';
  const ranks = board.split('/');
  if (ranks.length !== 8 || ranks[1] !== 'pppppppp' || ranks[6] !== 'PPPPPPPP') return null;
  if (ranks.slice(2, 6).some((r) => r !== '8')) return null;
  const white = ranks[7];
  if (ranks[0] !== white.toLowerCase() || !/^[RNBQK]{8}$/.test(white)) return null;
  let n = back960.get(white);
  if (n === undefined) {
    n = chess960Number(white);
    back960.set(white, n);
  }
  return n < 0 || n === 518 ? null : n;
}

/** A king move along its back rank by two or more files: the only moves that can be castling. */
const mayCastle = (m: string): boolean =>
  m.length === 4 && m[1] === m[3] && (m[1] === '1' || m[1] === '8') && Math.abs(m.charCodeAt(0) - m.charCodeAt(2)) >= 1;

/** A diagonal step from a 7th rank onto a last rank: the only moves that can be a pawn taking the king there. */
const mayTakeKingOnLastRank = (m: string): boolean =>
  ((m[1] === '7' && m[3] === '8') || (m[1] === '2' && m[3] === '1')) && Math.abs(m.charCodeAt(0) - m.charCodeAt(2)) === 1;

/**
 * Moves whose spelling depends on the board. Castling on classic starts: king-takes-rook
 * (`e1h1`) becomes the king's two-square move (`e1g1`); Chess960 starts keep what was
 * written. A pawn taking the king on its last rank does not promote: a promotion letter
 * (`f7e8q`, standard UCI for a pawn reaching that rank) is dropped (`f7e8`). Notes say
 * which spellings were seen. Tracks the board by playing moves without legality; stops
 * tracking at the first move it cannot place (the replayer will report it).
 */
export function normaliseSpellings(input: GameRecordInput, notes: Set<string>): void {
  const turns = input.turns;
  const start = startPosition(input.startFen);
  if (start === null) return;
  // Tracking goes on while a turn ahead may hold a move whose spelling depends on the board.
  // dicechess.com writes promotion NONE for a pawn the site queens: the queen is certain.
  const queensUnnamed = input.format === 'dicechess-com';
  // The kings are followed without a board only while each side has its one king: a pawn that
  // became a king (or a start with two) puts kings on the board the following does not know.
  let oneKingEach = kingsAtMostOne(start.board);
  let upTo = nextSpellingTurn(turns, 0, start, queensUnnamed, oneKingEach);
  if (upTo < 0) return;
  const pos = start.clone();
  const is960 = input.chess960 !== null && input.chess960 !== undefined;
  for (let t = 0; t < turns.length; t++) {
    if (t > upTo) {
      upTo = nextSpellingTurn(turns, t, pos, queensUnnamed, oneKingEach);
      if (upTo < 0) return;
    }
    const turn = turns[t];
    for (let i = 0; i < turn.moves.length; i++) {
      const text = turn.moves[i];
      let move = uciMove(pos, text);
      if (queensUnnamed && text.length === 4 && reachesLastRank(text) && isPawn(pos.board[squareAt(text, 0)] ?? 0) && !(move >= 0 && capturesKingOnLastRank(pos, pos.turn, moveTo(move)))) {
        const queened = uciMove(pos, `${text}q`);
        if (queened >= 0) {
          turn.moves[i] = `${text}q`;
          notes.add('record.promotion-none');
          move = queened;
        }
      }
      if (move < 0) return;
      if (moveKind(move) === CASTLE) {
        const twoSquares = makeUci(move, 'king-two-squares');
        if (text === twoSquares) notes.add('castling:king-two-squares');
        else {
          notes.add('castling:king-takes-rook');
          // Only classic geometry (king on e, rook in the corner) has a two-square spelling; a
          // mid-game 960 position (opening-book lines carry no start number) keeps king-takes-rook.
          const from = moveFrom(move) & 7;
          const rookFile = moveTo(move) & 7;
          if (!is960 && from === 4 && (rookFile === 0 || rookFile === 7)) turn.moves[i] = twoSquares;
        }
      } else if (mayTakeKingOnLastRank(text) && isPawn(pos.board[moveFrom(move)]) && capturesKingOnLastRank(pos, pos.board[moveFrom(move)] > 0 ? 0 : 1, moveTo(move))) {
        if (text.length === 4) notes.add('king-capture-on-last-rank:plain');
        else {
          notes.add('king-capture-on-last-rank:promotion-letter');
          turn.moves[i] = makeUci(move);
        }
      }
      if (movePromotion(move) === KING) oneKingEach = false;
      pos.make(move);
    }
    pos.endTurn();
  }
}

/** At most one king of each colour on the board. */
function kingsAtMostOne(board: Int8Array): boolean {
  let white = 0;
  let black = 0;
  for (let sq = 0; sq < 64; sq++) {
    if (board[sq] === KING) white++;
    else if (board[sq] === -KING) black++;
  }
  return white <= 1 && black <= 1;
}

/** A move from a 7th rank onto a last rank (either side). */
const reachesLastRank = (m: string): boolean => (m[1] === '7' && m[3] === '8') || (m[1] === '2' && m[3] === '1');

const isPawn = (piece: number): boolean => piece === PAWN || piece === -PAWN;

/** The square a lower-case UCI move names at `at` (file, rank), or -1. */
const squareAt = (m: string, at: number): number => squareOfCodes(m.charCodeAt(at), m.charCodeAt(at + 1));

/**
 * The first turn from `from` that may hold a move whose spelling depends on the board, or
 * -1: a castling king's move along a back rank (castling is always one: the king moves, the
 * board says whether it castles) or a pawn's diagonal step onto a last rank (taking the king).
 * The kings are followed from their squares in `pos` without a board; a side castles only
 * while it holds a right and its king has not moved (a king's move ends its rights). A move
 * it cannot read counts too, so the answer is never later than the board's. With
 * `oneKingEach` (no side has a king the following does not know), a diagonal step onto a
 * last rank counts only where a followed king stands (elsewhere it takes no king: in chess,
 * a pawn taking a piece and promoting); a king's move along its rank while it may castle
 * counts (castling takes no back rank), and so does a pawn's promotion to a king.
 */
function nextSpellingTurn(turns: GameRecordInput['turns'], from: number, pos: Position, queensUnnamed: boolean, oneKingEach: boolean): number {
  let white = pos.kingSquare[0];
  let black = pos.kingSquare[1];
  let whiteCastles = (pos.castling & 0x00ff) !== 0;
  let blackCastles = (pos.castling & 0xff00) !== 0;
  for (let t = from; t < turns.length; t++) {
    const moves = turns[t].moves;
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i];
      const a = squareAt(m, 0);
      const b = squareAt(m, 2);
      if ((m.length !== 4 && m.length !== 5) || a < 0 || b < 0 || (queensUnnamed && m.length === 4 && reachesLastRank(m))) return t;
      if (mayTakeKingOnLastRank(m) && (!oneKingEach || b === white || b === black)) return t;
      if (m.length === 5 && (m.charCodeAt(4) | 32) === 107 /* k */) return t;
      if (a === white || a === black) {
        if (a === white) {
          if (whiteCastles && (mayCastle(m) || m[1] === m[3])) return t;
          whiteCastles = false;
          if (b === black) black = -1;
          white = b;
        } else {
          if (blackCastles && (mayCastle(m) || m[1] === m[3])) return t;
          blackCastles = false;
          if (b === white) white = -1;
          black = b;
        }
      } else if (b === white) white = -1;
      else if (b === black) black = -1;
    }
  }
  return -1;
}
