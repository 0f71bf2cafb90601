import type { GameRecordInput, Side } from '../model/game-record.js';
import { formedTurns } from '../model/checked-record.js';
import { FenBoards } from '../model/fen-boards.js';
import { checkFen } from '../notation/fen.js';
import { squareOfCodes } from '../notation/squares.js';
import { uciOfSquares } from '../notation/uci.js';
import { fenBoardEnd, fenFieldsEnd, fenKept } from './fen-bytes.js';
import type { DocPlace } from './format.js';
import { bind8, lit8 as lit, literal8 as ascii } from './eight-bytes.js';
import { COMMA, QUOTE, leave, need, numberAt, numberEnd, stringEnd, textAt } from './json-bytes.js';

type Turn = GameRecordInput['turns'][number];

/** An ingest-wire document read from its bytes: its fields but the turns (as JSON.parse gives them), and the turns converted. */
export interface ScannedIngestWire {
  /** Every field of the document but `turns`, in the text's order. */
  fields: Record<string, unknown>;
  turns: Turn[];
  /** The boards of the turns' FENs, read on the way. */
  boards: FenBoards;
  /** Whether some turn rolled dice (recorded as numbers: the note `dice:ints`). */
  diceInts: boolean;
}

/**
 * The fast reading of an ingest-wire document in the form this tool writes it (compact ASCII
 * JSON, keys in makeIngestWire's order, dice as digits, canonical moves, plain FENs): the
 * turns, nearly all of a document's bytes, are read byte by byte against their known keys
 * straight into the converted turns the general path (JSON.parse, then the format's turn
 * conversion) gives, each FEN checked and its board written down on its bytes, once. The
 * fields before and after the turns are few and small, and go through JSON.parse as they
 * are. Undefined for anything else, which the general path then reads and words; a test
 * holds the two paths to the same records over the fixtures, the samples and a fuzz corpus.
 */
export function scanIngestWire(b: Buffer, start: number, end: number, place: DocPlace): ScannedIngestWire | undefined {
  try {
    return scan(b, start, end, place);
  } catch {
    return undefined;
  }
}

const TURNS = ascii(',"turns":[');
const TURN_NUMBER = ascii('{"turn_number":');
const ACTIVE_COLOR = ascii(',"active_color":');
const DICE = ascii(',"dice":[');
const MOVES = ascii(',"moves":[');
const THINKING = ascii(',"thinking_time_ms":');
const FEN_AFTER = ascii(',"fen_after":');
const WHITE = ascii('"w"');
const BLACK = ascii('"b"');
const NULL = ascii('null');
const OPEN = ascii('{');
const CLOSE = ascii('}');
const CLOSE_LIST = ascii(']');
const COMMA_LITERAL = ascii(',');
/** The shortest turn the form holds (no dice, no moves, nulls), with its comma: bounds the turns a document can have. */
const SHORTEST_TURN = '{"turn_number":0,"active_color":"w","dice":[],"moves":[],"thinking_time_ms":null,"fen_after":null},'.length;
const CLOSE_BRACKET = CLOSE_LIST.bytes[0];

function scan(b: Buffer, start: number, end: number, place: DocPlace): ScannedIngestWire {
  bind8(b);
  if (b[start] !== OPEN.bytes[0] || b[end - 1] !== CLOSE.bytes[0]) leave();
  const turnsAt = b.indexOf(TURNS.bytes, start);
  if (turnsAt < 0 || turnsAt >= end) leave();
  // The fields before the turns: an object of their own (a `,"turns":[` inside a string or a
  // nested object leaves them unbalanced, or puts a key in the wrong place: JSON.parse or the checks below refuse it).
  const head = JSON.parse(`${b.toString('latin1', start, turnsAt)}}`) as unknown;
  if (!plainObject(head) || Object.hasOwn(head, 'turns')) leave();
  let p = turnsAt + TURNS.length;
  // Room for as many boards as the bytes could hold turns; what the turns did not take is given back below.
  const boards = FenBoards.upTo(Math.ceil((end - p) / SHORTEST_TURN));
  const read: TurnsRead = { turns: [], diceInts: false };
  try {
    if (p < end && b[p] === CLOSE_BRACKET) p++;
    else {
      for (;;) {
        p = readTurn(b, p, end, read, boards, place.location);
        if (p < end && b[p] === COMMA) p++;
        else {
          p = need(lit(b, p, end, CLOSE_LIST));
          break;
        }
      }
    }
  } finally {
    boards.keep(read.turns.length);
  }
  // The fields after the turns (the events), read the same way, join those before them.
  if (p !== end - 1) {
    p = need(lit(b, p, end, COMMA_LITERAL));
    const tail = JSON.parse(`{${b.toString('latin1', p, end)}`) as unknown;
    if (!plainObject(tail)) leave();
    // One object as JSON.parse builds it: none of its keys twice.
    for (const k of Object.keys(tail)) {
      if (Object.hasOwn(head, k) || k === 'turns') leave();
      head[k] = tail[k];
    }
  }
  return { fields: head, turns: formedTurns(read.turns), boards, diceInts: read.diceInts };
}

interface TurnsRead {
  turns: Turn[];
  diceInts: boolean;
}

/** An object JSON.parse made, with no key that assignment would treat otherwise. */
function plainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
}

/**
 * One turn `{"turn_number":…,"active_color":…,"dice":[…],"moves":[…],"thinking_time_ms":…,"fen_after":…}`
 * as the format's turn conversion gives it, added to `read`; the position after it. Leaves
 * whatever that conversion would refuse, note or rewrite (a die that is not a digit 1–6, a
 * move that is not canonical UCI, a FEN the byte check is unsure of) to the general path.
 */
function readTurn(b: Buffer, p: number, end: number, read: TurnsRead, boards: FenBoards, location: string): number {
  const t = read.turns.length;
  p = need(lit(b, p, end, TURN_NUMBER));
  let q = need(numberEnd(b, p, end));
  const n = numberAt(b, p, q);
  if (!Number.isFinite(n)) leave();
  p = need(lit(b, q, end, ACTIVE_COLOR));
  let side: Side;
  if ((q = lit(b, p, end, WHITE)) >= 0) side = 'w';
  else {
    q = need(lit(b, p, end, BLACK));
    side = 'b';
  }
  p = need(lit(b, q, end, DICE));
  // Dice: single digits 1–6 (JSON numbers), at most six; recorded out of order, they are in roll order.
  const dice: number[] = [];
  let diceOrder: Turn['diceOrder'] = 'unknown';
  if (p < end && b[p] === CLOSE_BRACKET) p++;
  else {
    read.diceInts = true;
    for (;;) {
      const face = b[p] - 48;
      if (face < 1 || face > 6 || dice.length === 6) leave();
      if (dice.length > 0 && face < dice[dice.length - 1]) diceOrder = 'roll';
      dice.push(face);
      p = afterItem(b, p + 1, end);
      if (b[p - 1] !== COMMA) break;
    }
  }
  p = need(lit(b, p, end, MOVES));
  const moves: string[] = [];
  if (p < end && b[p] === CLOSE_BRACKET) p++;
  else {
    for (;;) {
      p = readMove(b, p, end, moves);
      p = afterItem(b, p, end);
      if (b[p - 1] !== COMMA) break;
    }
  }
  p = need(lit(b, p, end, THINKING));
  let thinkingMs: number | null = null;
  if ((q = lit(b, p, end, NULL)) < 0) {
    q = need(numberEnd(b, p, end));
    thinkingMs = numberAt(b, p, q);
    if (!Number.isFinite(thinkingMs)) leave();
  }
  p = need(lit(b, q, end, FEN_AFTER));
  let fenAfter: string | null = null;
  if ((q = lit(b, p, end, NULL)) >= 0) p = q;
  else if (p + 1 < end && b[p] === QUOTE && b[p + 1] === QUOTE) p += 2;
  else {
    if (b[p] !== QUOTE) leave();
    // The FEN checked and its board written down on its bytes, on the way to its closing quote.
    const a = p + 1;
    const space = fenBoardEnd(b, a, end, boards.squares, boards.board(t));
    const quote = space < 0 ? -1 : fenFieldsEnd(b, a, space, end);
    if (quote >= 0) {
      fenAfter = textAt(b, a, a + fenKept);
      boards.fens[t] = fenAfter;
      p = quote + 1;
    } else {
      // One the byte check is unsure of (a pawn that took a king on its last rank): the text's check decides, as for JSON.parse's string.
      p = need(stringEnd(b, p, end));
      boards.squares.fill(0, boards.board(t), boards.board(t) + 64);
      fenAfter = checkFen(textAt(b, a, p - 1), 'turn', 'fen_after', boards, t);
    }
  }
  read.turns.push({ side, dice, diceOrder, moves, fenAfter, clockMs: null, thinkingMs, diceFlags: null, location: location + turnSuffix(n) });
  return need(lit(b, p, end, CLOSE));
}

/** After a list item ending at q: the position past its comma or past the list's closing bracket. */
function afterItem(b: Buffer, q: number, end: number): number {
  if (q >= end || (b[q] !== COMMA && b[q] !== CLOSE_BRACKET)) leave();
  return q + 1;
}

/** The canonical UCI move (lower-case squares, a piece moved, a promotion letter) in quotes at p, added to `moves`; the position after it. */
function readMove(b: Buffer, p: number, end: number, moves: string[]): number {
  if (p + 6 > end || b[p] !== QUOTE) leave();
  const from = squareOfCodes(b[p + 1], b[p + 2]);
  const to = squareOfCodes(b[p + 3], b[p + 4]);
  if (from < 0 || to < 0 || from === to) leave();
  if (b[p + 5] === QUOTE) {
    moves.push(uciOfSquares(from, to));
    return p + 6;
  }
  const promotion = b[p + 5];
  if (p + 7 > end || b[p + 6] !== QUOTE || (promotion !== 110 && promotion !== 98 && promotion !== 114 && promotion !== 113 && promotion !== 107)) leave();
  moves.push(textAt(b, p + 1, p + 6));
  return p + 7;
}

/** `#turn <n>` texts of whole turn numbers, made once each (every turn of every record has one). */
const TURN_SUFFIXES = new Array<string | undefined>(4096).fill(undefined);
/** The location text a turn numbered `n` adds to its record's. */
export function turnSuffix(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 4096) return `#turn ${n}`;
  return (TURN_SUFFIXES[n] ??= `#turn ${n}`);
}
