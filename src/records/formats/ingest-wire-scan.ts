import { squareOfCodes } from '../notation/squares.js';
import { uciOfSquares } from '../notation/uci.js';
import { CLOSE, CLOSE_LIST, COMMA, COMMA_LITERAL, NULL, OPEN, ascii, bind, leave, lit, need, numberAt, numberEnd, stringEnd, textAt } from './json-bytes.js';

/**
 * The fast reading of an ingest-wire document in the form this tool writes it (compact ASCII
 * JSON, keys in makeIngestWire's order): the very object JSON.parse gives for the same text,
 * or undefined for anything else, which JSON.parse then reads. The turns, nearly all of a
 * document's bytes, are read byte by byte against their known keys (no key strings to look
 * up, a move's text shared by every move between the same squares); the fields before and
 * after them are few and small, and go through JSON.parse as they are. The converter then
 * reads the object as it reads JSON.parse's, so the two paths cannot differ but in the
 * object, which a test holds equal over the fixtures, the samples and a fuzz corpus.
 */
export function scanIngestWire(b: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  try {
    return scan(b, start, end);
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

function scan(b: Buffer, start: number, end: number): Record<string, unknown> {
  bind(b);
  if (b[start] !== OPEN.bytes[0] || b[end - 1] !== CLOSE.bytes[0]) leave();
  const turnsAt = b.indexOf(TURNS.bytes, start);
  if (turnsAt < 0 || turnsAt >= end) leave();
  // The fields before the turns: an object of their own (a `,"turns":[` inside a string or a
  // nested object leaves them unbalanced, or puts a key in the wrong place: JSON.parse or the checks below refuse it).
  const head = JSON.parse(`${b.toString('latin1', start, turnsAt)}}`) as unknown;
  if (!plainObject(head) || Object.hasOwn(head, 'turns')) leave();
  const turns: unknown[] = [];
  let p = turnsAt + TURNS.length;
  if (p < end && b[p] === CLOSE_LIST.bytes[0]) p++;
  else {
    for (;;) {
      const turn: Record<string, unknown> = {};
      p = readTurn(b, p, end, turn);
      turns.push(turn);
      if (p < end && b[p] === COMMA) p++;
      else {
        p = need(lit(b, p, end, CLOSE_LIST));
        break;
      }
    }
  }
  // The fields after the turns (the events), read the same way.
  let tail: Record<string, unknown> = {};
  if (p !== end - 1) {
    p = need(lit(b, p, end, COMMA_LITERAL));
    const parsed = JSON.parse(`{${b.toString('latin1', p, end)}`) as unknown;
    if (!plainObject(parsed)) leave();
    tail = parsed;
  }
  // One object as JSON.parse builds it: the keys in the text's order, none twice.
  const doc: Record<string, unknown> = {};
  for (const k of Object.keys(head)) doc[k] = head[k];
  doc.turns = turns;
  for (const k of Object.keys(tail)) {
    if (Object.hasOwn(doc, k)) leave();
    doc[k] = tail[k];
  }
  return doc;
}

/** An object JSON.parse made, with no key that assignment would treat otherwise. */
function plainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !Object.hasOwn(v, '__proto__');
}

/** One turn `{"turn_number":…,"active_color":…,"dice":[…],"moves":[…],"thinking_time_ms":…,"fen_after":…}` into `turn`; the position after it. */
function readTurn(b: Buffer, p: number, end: number, turn: Record<string, unknown>): number {
  p = need(lit(b, p, end, TURN_NUMBER));
  let q = need(numberEnd(b, p, end));
  turn.turn_number = numberAt(b, p, q);
  p = need(lit(b, q, end, ACTIVE_COLOR));
  if ((q = lit(b, p, end, WHITE)) >= 0) turn.active_color = 'w';
  else if ((q = lit(b, p, end, BLACK)) >= 0) turn.active_color = 'b';
  else {
    q = need(stringEnd(b, p, end));
    turn.active_color = b.toString('latin1', p + 1, q - 1);
  }
  p = need(lit(b, q, end, DICE));
  const dice: number[] = [];
  if (p < end && b[p] === CLOSE_LIST.bytes[0]) p++;
  else {
    for (;;) {
      q = need(numberEnd(b, p, end));
      dice.push(numberAt(b, p, q));
      p = afterItem(b, q, end);
      if (b[q] !== COMMA) break;
    }
  }
  turn.dice = dice;
  p = need(lit(b, p, end, MOVES));
  const moves: string[] = [];
  if (p < end && b[p] === CLOSE_LIST.bytes[0]) p++;
  else {
    for (;;) {
      q = need(stringEnd(b, p, end));
      moves.push(moveText(b, p + 1, q - 1));
      p = afterItem(b, q, end);
      if (b[q] !== COMMA) break;
    }
  }
  turn.moves = moves;
  p = need(lit(b, p, end, THINKING));
  if ((q = lit(b, p, end, NULL)) >= 0) turn.thinking_time_ms = null;
  else {
    q = need(numberEnd(b, p, end));
    turn.thinking_time_ms = numberAt(b, p, q);
  }
  p = need(lit(b, q, end, FEN_AFTER));
  if ((q = lit(b, p, end, NULL)) >= 0) turn.fen_after = null;
  else {
    q = need(stringEnd(b, p, end));
    // Buffer's own latin1 slice, without toString's checks: a FEN a turn.
    turn.fen_after = textAt(b, p + 1, q - 1);
  }
  return need(lit(b, q, end, CLOSE));
}

/** After a list item ending at q: the position past its comma or past the list's closing bracket. */
function afterItem(b: Buffer, q: number, end: number): number {
  if (q >= end || (b[q] !== COMMA && b[q] !== CLOSE_LIST.bytes[0])) leave();
  return q + 1;
}

/** A move's text `b[a, z)`: lower-case squares from–to are the shared string of those squares. */
function moveText(b: Buffer, a: number, z: number): string {
  if (z - a === 4) {
    const from = squareOfCodes(b[a], b[a + 1]);
    const to = squareOfCodes(b[a + 2], b[a + 3]);
    if (from >= 0 && to >= 0) return uciOfSquares(from, to);
  }
  return b.toString('latin1', a, z);
}
