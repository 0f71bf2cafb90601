import { COMMA, digitsEnd, leave, need, numberAt, numberEnd, stringEnd, textAt } from '../json-bytes.js';
import { again8 as again, bind8, lit8 as lit, literal8 as ascii, sameBytes8 as sameBytes } from '../eight-bytes.js';
import { CLOSE_BRACE, QUOTE } from '../../char-codes.js';
import { fenBoardEnd, fenFieldsEnd, fenKept } from '../fen-bytes.js';
import { type Clocks, type DiceKey, type Die, type Step, type StepFen, bankOf, clockOf, diceKeyOf, dieNote, dieOfCode, inPropertyOrder, moveOf, plainFen, readFen, squaresNote, usualMove } from './steps.js';

/**
 * The fast reading of a state-map document written as the site and this tool write it:
 * compact ASCII JSON, `{"gameId":…,"gameMoveHistoryStateMap":{…}}` (the id may come after
 * the map, or not at all), steps in rising order, each `{"fen":…,"dices":[…],
 * "gameMoveHistoryMove":…,"leftTime":…,"bank":…}` (bank optional). It reads the document's
 * bytes `bytes[start, end)` and gives the game id and the steps that `parseSteps` gives for
 * the same text through JSON.parse, or undefined for anything else: whitespace, other keys or
 * another order, escapes, bytes beyond ASCII, values of another type, and anything the
 * general path would report (its wording stays the general path's).
 *
 * Why bytes: JSON.parse and the per-step objects took three quarters of a state map's
 * decoding, and reading a string by character codes cost half as much again as reading the same
 * bytes (a string's representation is looked up on every read). Most of a step repeats the
 * step before it (its FEN, dice and clocks), so a field whose bytes repeat the previous
 * step's is not read again: its value is shared. A test holds this equal to the general path
 * over the fixtures, the samples and a fuzz corpus.
 */
export function scanStateMap(bytes: Buffer, start: number, end: number, notes: Set<string>): ScannedStateMap | undefined {
  try {
    return scan(bytes, start, end, notes);
  } catch {
    // A problem with the record: the general path finds it again and words it.
    return undefined;
  }
}

/**
 * A scanned document: its steps, and the squares of their boards where `Step.boardAt` says
 * (this thread's scratch: good until the next document is scanned).
 */
export interface ScannedStateMap {
  gameId: string | undefined;
  steps: Step[];
  squares: Int8Array;
}

/** The boards of the document being scanned, 64 squares each; grown for a longer document. */
let scratch = new Int8Array(64 * 1024);

const OPEN = ascii('{');
const CLOSE = ascii('}');
const OPEN_LIST = ascii('[');
const CLOSE_LIST = ascii(']');
const COLON = ascii(':');
const COMMA_LITERAL = ascii(',');
const NULL = ascii('null');
const TRUE = ascii('true');
const FALSE = ascii('false');
const GAME_ID = ascii('"gameId":');
const LATE_GAME_ID = ascii(',"gameId":');
const MAP = ascii('"gameMoveHistoryStateMap":{');
const KEY_OPEN = ascii('"');
const FEN = ascii('":{"fen":');
const DICES = ascii(',"dices":');
const VALUE = ascii('{"value":');
const ALLOWED = ascii(',"allowed":');
const USED = ascii(',"used":');
const MOVE = ascii(',"gameMoveHistoryMove":');
const FROM = ascii('{"from":');
const TO = ascii(',"to":');
const PROMOTION = ascii(',"promotion":');
const NONE = ascii('"NONE"');
const LEFT_TIME = ascii(',"leftTime":');
// The usual die and move, as the literals around their values.
const DIE_HEAD = ascii('{"value":"');
const DIE_ALLOWED = ascii('","allowed":');
const TRUE_USED = ascii('true,"used":');
const FALSE_USED = ascii('false,"used":');
const TRUE_CLOSE = ascii('true}');
const FALSE_CLOSE = ascii('false}');
const FROM_SQUARE = ascii('{"from":"');
const TO_SQUARE = ascii('","to":"');
const NO_PROMOTION = ascii('","promotion":"NONE"}');
const NO_MOVE = ascii(',"gameMoveHistoryMove":null,"leftTime":');
const BANK = ascii(',"bank":');

/** A boolean literal at p: its end (4 bytes on: true; 5: false). */
function boolEnd(b: Uint8Array, p: number, end: number): number {
  const q = lit(b, p, end, TRUE);
  return q >= 0 ? q : need(lit(b, p, end, FALSE));
}

/**
 * A document's reading so far: the step before, where its fields' bytes were (a field whose
 * bytes repeat is that field again) and the fields of the step being read. The parts of a
 * step are functions of their own: V8 optimises small functions soon, and one large one only
 * after it has run slowly for a good part of a run (its compile took the longest).
 */
class Reading {
  prev: Step | null = null;
  fenA = 0;
  fenB = 0;
  /** Where the board (and the space after it) of the last FEN that `plainFen` passed is, and that FEN. */
  boardA = 0;
  boardB = 0;
  plainBefore: StepFen | undefined = undefined;
  /** Where the last step's FEN value started and its dice ended, and where its clocks started and its last field ended: the spans a step that repeats it repeats. */
  stepFenA = 0;
  stepDiceB = 0;
  stepClockA = 0;
  stepB = 0;
  clockA = 0;
  clockB = 0;
  /** Where the last bank number read is (bankB 0: none). */
  bankA = 0;
  bankB = 0;
  /** Where the next board's squares go in `scratch`. */
  boardsEnd = 0;
  /** The board (in `scratch`) whose ranks fen-bytes holds (the last that passed its check); -1: none of this document's. */
  ranksOf = -1;
  /** Where the keys of the last clocks read were (with their quotes) and their strings, in the text's order. */
  readonly keyAt: number[] = [];
  readonly keyText: string[] = [];
  /** Where each die of the last dice read started and ended. */
  readonly dieAt: number[] = [];
  // The step being read.
  n = 0;
  fen: StepFen | null = null;
  dice: Die[] = [];
  diceKey: DiceKey = 0;
  move: string | null = null;
  leftTime: Clocks | null = null;
  /** The last die and square notes added (a document notes each once; a Set's add costs a lookup every time). */
  dieNoted = '';
  squaresNoted = '';
  constructor(readonly notes: Set<string>) {}
}

// Locations are for the words of a problem, and any problem sends the document to the general path.
const where = '';

function scan(b: Buffer, start: number, end: number, notes: Set<string>): ScannedStateMap {
  bind8(b);
  let p = need(lit(b, start, end, OPEN));
  let q: number;
  let gameId: string | undefined;
  if ((q = lit(b, p, end, GAME_ID)) >= 0) {
    const e = need(stringEnd(b, q, end));
    gameId = textAt(b, q + 1, e - 1);
    p = need(lit(b, e, end, COMMA_LITERAL));
  }
  p = need(lit(b, p, end, MAP));
  const steps: Step[] = [];
  const r = new Reading(notes);
  for (;;) {
    p = readStep(b, p, end, r);
    steps.push(r.prev!);
    if (p >= end || b[p] !== COMMA) break;
    p++;
  }
  p = need(lit(b, p, end, CLOSE));
  if ((q = lit(b, p, end, LATE_GAME_ID)) >= 0) {
    if (gameId !== undefined) leave();
    const e = need(stringEnd(b, q, end));
    gameId = textAt(b, q + 1, e - 1);
    p = e;
  }
  p = need(lit(b, p, end, CLOSE));
  if (p !== end) leave();
  return { gameId, steps, squares: scratch };
}

/** One step `"<n>":{…}` at p: the position after it; the step is `r.prev`. */
function readStep(b: Buffer, p: number, end: number, r: Reading): number {
  // The step key: a whole number without leading zeros, above the previous one (so JSON.parse's key order is the steps' order).
  p = need(lit(b, p, end, KEY_OPEN));
  const keyEnd = digitsEnd(b, p, end);
  if (keyEnd === p || keyEnd - p > 9 || (keyEnd - p > 1 && b[p] === 48)) leave();
  const n = numberAt(b, p, keyEnd);
  if (r.prev !== null && n <= r.prev.n) leave();
  r.n = n;
  p = need(lit(b, keyEnd, end, FEN));
  const prev = r.prev;
  let q: number;
  // Most steps repeat the FEN and dice of the step before (a highlight reset), and its clocks and bank (a reset, a move): each span is compared once, as a whole.
  // Where the two first differ tells the rest: the FEN again, or its board again (a roll), or neither (a move).
  const span = r.stepDiceB - r.stepFenA;
  const same = prev === null ? 0 : sameBytes(b, p, r.stepFenA, Math.min(span, end - p));
  if (prev !== null && same === span) {
    r.fen = prev;
    r.dice = prev.dice;
    r.diceKey = prev.diceKey;
    r.stepFenA = p;
    r.stepDiceB = p += span;
  } else {
    r.stepFenA = p;
    p = readFenField(b, p, end, r, same);
    p = readDice(b, need(lit(b, p, end, DICES)), end, r);
    r.stepDiceB = p;
  }
  // Half the steps have no move (rolls, highlight resets): its key, null and the next key in one.
  if ((q = lit(b, p, end, NO_MOVE)) >= 0) {
    r.move = null;
    p = q;
  } else {
    p = readMove(b, need(lit(b, p, end, MOVE)), end, r);
    p = need(lit(b, p, end, LEFT_TIME));
  }
  if (prev !== null && (q = again(b, p, end, r.stepClockA, r.stepB)) >= 0 && q < end && b[q] === CLOSE_BRACE) {
    r.stepClockA = p;
    r.stepB = q;
    r.prev = { n, fenText: r.fen!.fenText, fen: r.fen!.fen, board: r.fen!.board, toMove: r.fen!.toMove, boardAt: r.fen!.boardAt, dice: r.dice, diceKey: r.diceKey, move: r.move, leftTime: prev.leftTime, bank: prev.bank };
    return q + 1;
  }
  r.stepClockA = p;
  p = readClocks(b, p, end, r);
  let bank: number | null = null;
  if ((q = lit(b, p, end, BANK)) >= 0) {
    p = q;
    // The bank's bytes of the step before again: its value (a bank rises only at an accepted double).
    if (r.prev !== null && (q = again(b, p, end, r.bankA, r.bankB)) >= 0 && (q >= end || b[q] === CLOSE_BRACE)) bank = r.prev.bank;
    else if ((q = lit(b, p, end, NULL)) >= 0) r.bankB = 0;
    else {
      q = need(numberEnd(b, p, end));
      bank = bankOf(numberAt(b, p, q), n, where);
      r.bankA = p;
      r.bankB = q;
    }
    p = q;
  } else r.bankB = 0;
  r.stepB = p;
  p = need(lit(b, p, end, CLOSE));
  const fen = r.fen!;
  r.prev = { n, fenText: fen.fenText, fen: fen.fen, board: fen.board, toMove: fen.toMove, boardAt: fen.boardAt, dice: r.dice, diceKey: r.diceKey, move: r.move, leftTime: r.leftTime, bank };
  return p;
}

/**
 * The FEN at p; `same`: how many of its first bytes are the previous step's FEN's (whose
 * text is the last FEN read, at `r.fenA`), and what follows it.
 */
function readFenField(b: Buffer, p: number, end: number, r: Reading, same: number): number {
  const prev = r.prev;
  let q: number;
  if (prev !== null && same >= r.fenB - r.fenA) {
    r.fen = prev;
    return p + (r.fenB - r.fenA);
  }
  let plain: StepFen | undefined;
  // A roll hands the same board to the other side: the board that passed (the last FEN read's) is not read again.
  // Otherwise the ranks its first bytes repeat are not read again (a move changes one or two).
  if (prev !== null && b[p] === QUOTE) plain = plainFenAt(b, p + 1, end, r, r.boardB > 0 && r.boardA === r.fenA + 1 ? same - 1 : 0);
  if (plain !== undefined) q = r.fenB;
  else {
    // Anything the byte check leaves: the string, checked as the general path checks it.
    q = need(stringEnd(b, p, end));
    const text = textAt(b, p + 1, q - 1);
    if (prev === null) r.fen = readFen(text, r.n, where, true);
    else {
      // A roll hands the same board to the other side: the board that passed is not read again.
      if (r.boardB > 0 && again(b, p + 1, q, r.boardA, r.boardB) >= 0) plain = plainFen(text, r.plainBefore, r.boardB - r.boardA - 1);
      else {
        const at = boardRoom(r);
        plain = plainFen(text, undefined, 0, scratch, at);
        if (plain !== undefined) r.boardsEnd += 64;
      }
      r.fen = plain ?? readFen(text, r.n, where, false);
    }
  }
  if (plain !== undefined) {
    r.fen = plain;
    r.plainBefore = plain;
    r.boardA = p + 1;
    r.boardB = r.boardA + plain.board.length + 1;
  } else r.boardB = 0;
  r.fenA = p;
  r.fenB = q;
  return q;
}

/** Where the next board's squares go (the scratch grown when full). */
function boardRoom(r: Reading): number {
  if (r.boardsEnd + 64 > scratch.length) {
    const grown = new Int8Array(2 * scratch.length);
    grown.set(scratch.subarray(0, r.boardsEnd));
    scratch = grown;
  }
  return r.boardsEnd;
}

/**
 * A later step's FEN string, its first byte at a, read as `plainFen` reads it, straight from
 * the bytes (fen-bytes.ts): the FEN, `r.fenB` after its closing quote; undefined where the byte
 * check leaves it to the string. `same`: how many of its first bytes are those of the last
 * FEN read, which passed (0: none known): its whole board and the space after it, and the
 * board is not read again (a roll); fewer, and only the ranks from the first that may differ
 * are read. A new board's squares are written down (for the judge).
 */
function plainFenAt(b: Buffer, a: number, end: number, r: Reading, same: number): StepFen | undefined {
  let at = -1;
  let space: number;
  const before = r.plainBefore!;
  if (r.boardB > 0 && same >= r.boardB - r.boardA) space = a + (r.boardB - r.boardA - 1);
  else {
    at = boardRoom(r);
    space = r.ranksOf >= 0 && r.ranksOf === before.boardAt ? fenBoardEnd(b, a, end, scratch, at, before.boardAt, same) : fenBoardEnd(b, a, end, scratch, at);
  }
  const q = space < 0 ? -1 : fenFieldsEnd(b, a, space, end);
  if (q < 0) {
    // The ranks fen-bytes kept are those of a board that did not pass.
    if (at >= 0) r.ranksOf = -1;
    return undefined;
  }
  const fenText = textAt(b, a, q);
  if (at >= 0) {
    r.boardsEnd += 64;
    r.ranksOf = at;
  }
  r.fenB = q + 1;
  return {
    fenText,
    fen: fenKept === q - a ? fenText : textAt(b, a, a + fenKept),
    board: at < 0 ? before.board : fenText.slice(0, space - a),
    toMove: b[space + 1] === 119 ? 'w' : 'b',
    boardAt: at < 0 ? before.boardAt : at,
  };
}

function readDice(b: Buffer, p: number, end: number, r: Reading): number {
  const prev = r.prev;
  let q: number;
  // Dice that repeat the step before all through come with its FEN (readStep); here, die by die.
  p = need(lit(b, p, end, OPEN_LIST));
  const before = prev === null ? [] : prev.dice;
  const dieAt = r.dieAt;
  // Dice of the faces and cases before them (a move changed a flag) keep the key before them.
  let sameFaces = prev !== null;
  const dice: Die[] = [];
  if ((q = lit(b, p, end, CLOSE_LIST)) >= 0) p = q;
  else {
    for (let j = 0; ; j++) {
      // A die whose text is the previous roll's at this place (a move spends one of three): the same die.
      if (j < before.length && (q = again(b, p, end, dieAt[2 * j], dieAt[2 * j + 1])) >= 0) {
        dice.push(before[j]);
        p = q;
      } else {
        const dieStart = p;
        p = readDie(b, p, end, r, dice);
        const die = dice[j];
        if (sameFaces && (j >= before.length || before[j].face !== die.face || before[j].side !== die.side)) sameFaces = false;
        dieAt[2 * j] = dieStart;
        dieAt[2 * j + 1] = p;
      }
      if (p >= end || b[p] !== COMMA) break;
      p++;
    }
    p = need(lit(b, p, end, CLOSE_LIST));
  }
  r.dice = dice;
  r.diceKey = sameFaces && dice.length === before.length ? prev!.diceKey : diceKeyOf(dice);
  return p;
}

/** One die `{"value":…,"allowed":…,"used":…}` at p onto `dice`: the position after it. */
function readDie(b: Buffer, p: number, end: number, r: Reading, dice: Die[]): number {
  const q = usualDie(b, p, end, r, dice);
  return q >= 0 ? q : anyDie(b, p, end, r, dice);
}

/**
 * A die in the usual shape, `{"value":"<one character>","allowed":…,"used":…}`, checked as
 * four literals around its values: the position after it, or -1 (nothing taken: `anyDie`
 * reads it part by part). A value that is no die leaves the document to the general path.
 */
function usualDie(b: Buffer, p: number, end: number, r: Reading, dice: Die[]): number {
  let q = lit(b, p, end, DIE_HEAD);
  // The value's one byte, then its closing quote: a die's character is never a quote or a backslash.
  if (q < 0 || (q = lit(b, q + 1, end, DIE_ALLOWED)) < 0) return -1;
  const allowed = b[q] === 116;
  if ((q = lit(b, q, end, allowed ? TRUE_USED : FALSE_USED)) < 0) return -1;
  const used = b[q] === 116;
  if ((q = lit(b, q, end, used ? TRUE_CLOSE : FALSE_CLOSE)) < 0) return -1;
  addDie(dieOfCode(b[p + DIE_HEAD.length], allowed, used) ?? leave(), r, dice);
  return q;
}

function addDie(die: Die, r: Reading, dice: Die[]): void {
  const note = dieNote(die);
  if (note !== r.dieNoted) r.notes.add((r.dieNoted = note));
  dice.push(die);
}

/** A die, its parts read one by one (`usualDie` left it). */
function anyDie(b: Buffer, p: number, end: number, r: Reading, dice: Die[]): number {
  p = need(lit(b, p, end, VALUE));
  let q = need(stringEnd(b, p, end));
  // One character: a die or not (anything longer is for the general path to word).
  if (q !== p + 3) leave();
  const value = b[p + 1];
  p = need(lit(b, q, end, ALLOWED));
  q = boolEnd(b, p, end);
  const allowed = q - p === 4;
  p = need(lit(b, q, end, USED));
  q = boolEnd(b, p, end);
  const used = q - p === 4;
  p = need(lit(b, q, end, CLOSE));
  addDie(dieOfCode(value, allowed, used) ?? leave(), r, dice);
  return p;
}

function readMove(b: Buffer, p: number, end: number, r: Reading): number {
  let q: number;
  if ((q = lit(b, p, end, NULL)) >= 0) {
    r.move = null;
    return q;
  }
  // The usual move: two squares, no promotion, as three literals around the squares.
  if ((q = lit(b, p, end, FROM_SQUARE)) >= 0 && (q = lit(b, q + 2, end, TO_SQUARE)) >= 0 && (q = lit(b, q + 2, end, NO_PROMOTION)) >= 0) {
    const from = p + FROM_SQUARE.length;
    const to = from + 2 + TO_SQUARE.length;
    r.move = usualMove(b[from], b[from + 1], b[to], b[to + 1]) ?? leave();
    const note = squaresNote(b[from], b[to]);
    if (note !== r.squaresNoted) r.notes.add((r.squaresNoted = note));
    return q;
  }
  p = need(lit(b, p, end, FROM));
  const fromEnd = need(stringEnd(b, p, end));
  const from = p + 1;
  p = need(lit(b, fromEnd, end, TO));
  const toEnd = need(stringEnd(b, p, end));
  const to = p + 1;
  p = need(lit(b, toEnd, end, PROMOTION));
  if ((q = lit(b, p, end, NONE)) >= 0 && fromEnd === from + 3 && toEnd === to + 3) {
    // The usual move: two squares, no promotion.
    r.move = usualMove(b[from], b[from + 1], b[to], b[to + 1]) ?? leave();
    const note = squaresNote(b[from], b[to]);
    if (note !== r.squaresNoted) r.notes.add((r.squaresNoted = note));
  } else {
    let promotion: string | null = null;
    if ((q = lit(b, p, end, NULL)) < 0) {
      q = need(stringEnd(b, p, end));
      promotion = textAt(b, p + 1, q - 1);
    }
    r.move = moveOf(textAt(b, from, fromEnd - 1), textAt(b, to, toEnd - 1), promotion, r.n, where, r.notes);
  }
  return need(lit(b, q, end, CLOSE));
}

function readClocks(b: Buffer, p: number, end: number, r: Reading): number {
  let q: number;
  if (r.prev !== null && (q = again(b, p, end, r.clockA, r.clockB)) >= 0) {
    r.leftTime = r.prev.leftTime;
    return q;
  }
  r.clockA = p;
  if ((q = lit(b, p, end, NULL)) >= 0) {
    r.leftTime = null;
    p = q;
  } else {
    p = need(lit(b, p, end, OPEN));
    const keys: string[] = [];
    const ms: number[] = [];
    if ((q = lit(b, p, end, CLOSE)) >= 0) p = q;
    else {
      const keyAt = r.keyAt;
      const keyText = r.keyText;
      for (let j = 0; ; j++) {
        q = need(stringEnd(b, p, end));
        // A clock's key is the same player's as in the clocks read before (its text again): that string.
        const key = j < keyText.length && again(b, p, end, keyAt[2 * j], keyAt[2 * j + 1]) === q ? keyText[j] : textAt(b, p + 1, q - 1);
        keyAt[2 * j] = p;
        keyAt[2 * j + 1] = q;
        keyText[j] = key;
        // A key twice (JSON.parse keeps the last value) or `__proto__`: for the general path.
        if (key === '__proto__' || keys.includes(key)) leave();
        p = need(lit(b, q, end, COLON));
        q = need(numberEnd(b, p, end));
        keys.push(key);
        ms.push(clockOf(numberAt(b, p, q), key, r.n, where));
        p = q;
        if (p >= end || b[p] !== COMMA) {
          keyText.length = j + 1;
          break;
        }
        p++;
      }
      p = need(lit(b, p, end, CLOSE));
    }
    r.leftTime = inPropertyOrder(keys, ms);
  }
  r.clockB = p;
  return p;
}
