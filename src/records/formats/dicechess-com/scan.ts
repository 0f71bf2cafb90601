import { type Die, type Step, bankOf, clockOf, diceKeyOf, dieOf, moveOf, readFen } from './steps.js';

/**
 * The fast reading of a state-map document written as the site and this tool write it:
 * compact JSON, `{"gameId":…,"gameMoveHistoryStateMap":{…}}` (the id may come after the map,
 * or not at all), steps in rising order, each `{"fen":…,"dices":[…],"gameMoveHistoryMove":…,
 * "leftTime":…,"bank":…}` (bank optional). It gives the game id and the steps that
 * `parseSteps` gives for the same text through JSON.parse, or undefined for any other text:
 * whitespace, other keys or another order, escapes in strings, values of another type, and
 * anything the general path would report (its wording stays the general path's).
 *
 * Why: JSON.parse and the per-step objects took three quarters of a state map's decoding,
 * and most of a step repeats the step before it (its FEN, dice and clocks), so here a field
 * whose text repeats the previous step's is not read again: its value is shared. A test
 * holds this equal to the general path over the fixtures, the samples and a fuzz corpus.
 */
export function scanStateMap(text: string, notes: Set<string>): { gameId: string | undefined; steps: Step[] } | undefined {
  try {
    return scan(text, notes);
  } catch {
    // A problem with the record: the general path finds it again and words it.
    return undefined;
  }
}

/** Thrown where the text leaves the form read here. */
const OTHER = new Error('not the compact state-map form');

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

// Position-passing helpers rather than closures over a shared position: V8 then keeps the
// position in a register, and charCodeAt is compiled inline (startsWith is a call costing
// far more on these short texts). Each returns the position after what it read, or -1.

/** `literal` at p. */
function lit(text: string, p: number, literal: string): number {
  const k = literal.length;
  for (let i = 0; i < k; i++) if (text.charCodeAt(p + i) !== literal.charCodeAt(i)) return -1;
  return p + k;
}

/** The text from a to b again at p. */
function again(text: string, p: number, a: number, b: number): number {
  const k = b - a;
  if (k === 0 || p + k > text.length) return -1;
  for (let i = 0; i < k; i++) if (text.charCodeAt(p + i) !== text.charCodeAt(a + i)) return -1;
  return p + k;
}

/** A JSON string at p with no escapes and no control characters. */
function stringEnd(text: string, p: number): number {
  if (text.charCodeAt(p) !== QUOTE) return -1;
  for (let i = p + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 32 || c === BACKSLASH) return -1;
  }
  return -1;
}

function digitsEnd(text: string, p: number): number {
  for (let c = text.charCodeAt(p); c >= 48 && c <= 57; c = text.charCodeAt(++p));
  return p;
}

/** A JSON number at p (its grammar checked here: its text then reads as the same double JSON.parse gives). */
function numberEnd(text: string, p: number): number {
  if (text.charCodeAt(p) === 45) p++;
  const start = p;
  p = digitsEnd(text, p);
  if (p === start || (text.charCodeAt(start) === 48 && p > start + 1)) return -1;
  if (text.charCodeAt(p) === 46) {
    const f = p + 1;
    p = digitsEnd(text, f);
    if (p === f) return -1;
  }
  const e = text.charCodeAt(p);
  if (e === 101 || e === 69) {
    p++;
    const sign = text.charCodeAt(p);
    if (sign === 43 || sign === 45) p++;
    const d = p;
    p = digitsEnd(text, d);
    if (p === d) return -1;
  }
  return p;
}

/** A position a helper returned, where the form requires one (-1: leave for the general path). */
function need(q: number): number {
  if (q < 0) throw OTHER;
  return q;
}

function scan(text: string, notes: Set<string>): { gameId: string | undefined; steps: Step[] } {
  let p = need(lit(text, 0, '{'));
  let q: number;
  let gameId: string | undefined;
  if ((q = lit(text, p, '"gameId":')) >= 0) {
    const end = need(stringEnd(text, q));
    gameId = text.slice(q + 1, end - 1);
    p = need(lit(text, end, ','));
  }
  p = need(lit(text, p, '"gameMoveHistoryStateMap":{'));
  const steps: Step[] = [];
  let prev: Step | null = null;
  let fenA = 0;
  let fenB = 0;
  let diceA = 0;
  let diceB = 0;
  let clockA = 0;
  let clockB = 0;
  /** Where each die of the last dice read started and ended. */
  const dieAt: number[] = [];
  for (;;) {
    // The step key: a whole number without leading zeros, above the previous one (so JSON.parse's key order is the steps' order).
    p = need(lit(text, p, '"'));
    const keyEnd = digitsEnd(text, p);
    if (keyEnd === p || keyEnd - p > 9 || (keyEnd - p > 1 && text.charCodeAt(p) === 48)) throw OTHER;
    const n = Number(text.slice(p, keyEnd));
    if (prev !== null && n <= prev.n) throw OTHER;
    p = need(lit(text, keyEnd, '":{"fen":'));
    // Locations are for the words of a problem, and any problem sends the document to the general path.
    const where = '';

    let fen: Pick<Step, 'fenText' | 'fen' | 'board' | 'toMove'>;
    if (prev !== null && (q = again(text, p, fenA, fenB)) >= 0) {
      fen = prev;
      p = q;
    } else {
      q = need(stringEnd(text, p));
      fen = readFen(text.slice(p + 1, q - 1), n, where, prev === null);
      fenA = p;
      fenB = p = q;
    }

    p = need(lit(text, p, ',"dices":'));
    let dice: Die[];
    let diceKey: string;
    if (prev !== null && (q = again(text, p, diceA, diceB)) >= 0) {
      dice = prev.dice;
      diceKey = prev.diceKey;
      p = q;
    } else {
      diceA = p;
      p = need(lit(text, p, '['));
      const before = prev === null ? [] : prev.dice;
      dice = [];
      if ((q = lit(text, p, ']')) >= 0) p = q;
      else {
        for (let j = 0; ; j++) {
          // A die whose text is the previous roll's at this place (a move spends one of three): the same die.
          if (j < before.length && (q = again(text, p, dieAt[2 * j], dieAt[2 * j + 1])) >= 0) {
            dice.push(before[j]);
            p = q;
            if (text.charCodeAt(p) !== COMMA) break;
            p++;
            continue;
          }
          const dieStart = p;
          p = need(lit(text, p, '{"value":'));
          q = need(stringEnd(text, p));
          const value = text.slice(p + 1, q - 1);
          p = need(lit(text, q, ',"allowed":'));
          let allowed = true;
          if ((q = lit(text, p, 'true')) < 0) {
            q = need(lit(text, p, 'false'));
            allowed = false;
          }
          p = need(lit(text, q, ',"used":'));
          let used = true;
          if ((q = lit(text, p, 'true')) < 0) {
            q = need(lit(text, p, 'false'));
            used = false;
          }
          p = need(lit(text, q, '}'));
          dice.push(dieOf(value, allowed, used, n, j, where, notes));
          dieAt[2 * j] = dieStart;
          dieAt[2 * j + 1] = p;
          if (text.charCodeAt(p) !== COMMA) break;
          p++;
        }
        p = need(lit(text, p, ']'));
      }
      diceKey = diceKeyOf(dice);
      diceB = p;
    }

    p = need(lit(text, p, ',"gameMoveHistoryMove":'));
    let move: string | null = null;
    if ((q = lit(text, p, 'null')) >= 0) p = q;
    else {
      p = need(lit(text, p, '{"from":'));
      q = need(stringEnd(text, p));
      const from = text.slice(p + 1, q - 1);
      p = need(lit(text, q, ',"to":'));
      q = need(stringEnd(text, p));
      const to = text.slice(p + 1, q - 1);
      p = need(lit(text, q, ',"promotion":'));
      let promotion: string | null = null;
      if ((q = lit(text, p, 'null')) < 0) {
        q = need(stringEnd(text, p));
        promotion = text.slice(p + 1, q - 1);
      }
      p = need(lit(text, q, '}'));
      move = moveOf(from, to, promotion, n, where, notes);
    }

    p = need(lit(text, p, ',"leftTime":'));
    let leftTime: Record<string, number> | null;
    if (prev !== null && (q = again(text, p, clockA, clockB)) >= 0) {
      leftTime = prev.leftTime;
      p = q;
    } else {
      clockA = p;
      if ((q = lit(text, p, 'null')) >= 0) {
        leftTime = null;
        p = q;
      } else {
        p = need(lit(text, p, '{'));
        leftTime = {};
        if ((q = lit(text, p, '}')) >= 0) p = q;
        else {
          for (;;) {
            q = need(stringEnd(text, p));
            const key = text.slice(p + 1, q - 1);
            // Assignment would set the prototype where JSON.parse makes a property.
            if (key === '__proto__') throw OTHER;
            p = need(lit(text, q, ':'));
            q = need(numberEnd(text, p));
            leftTime[key] = clockOf(Number(text.slice(p, q)), key, n, where);
            p = q;
            if (text.charCodeAt(p) !== COMMA) break;
            p++;
          }
          p = need(lit(text, p, '}'));
        }
      }
      clockB = p;
    }

    let bank: number | null = null;
    if ((q = lit(text, p, ',"bank":')) >= 0) {
      p = q;
      if ((q = lit(text, p, 'null')) >= 0) p = q;
      else {
        q = need(numberEnd(text, p));
        bank = bankOf(Number(text.slice(p, q)), n, where);
        p = q;
      }
    }
    p = need(lit(text, p, '}'));
    const step: Step = { n, fenText: fen.fenText, fen: fen.fen, board: fen.board, toMove: fen.toMove, dice, diceKey, move, leftTime, bank };
    steps.push(step);
    prev = step;
    if (text.charCodeAt(p) !== COMMA) break;
    p++;
  }
  p = need(lit(text, p, '}'));
  if ((q = lit(text, p, ',"gameId":')) >= 0) {
    if (gameId !== undefined) throw OTHER;
    const end = need(stringEnd(text, q));
    gameId = text.slice(q + 1, end - 1);
    p = end;
  }
  p = need(lit(text, p, '}'));
  if (p !== text.length) throw OTHER;
  return { gameId, steps };
}
