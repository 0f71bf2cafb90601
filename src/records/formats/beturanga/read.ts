import { type Obj, describe, isObj, optNumber, optString, reqArray } from '../../fields.js';
import type { GameRecordInput, Player, Side, TimeControl } from '../../model/game-record.js';
import { fail } from '../../items.js';
import { checkFen } from '../../notation/fen.js';
import { normaliseUci } from '../../notation/uci.js';
import type { Attempt, DocPlace } from '../format.js';
import { type Entry, entryFen, parseEntry } from './entries.js';

/**
 * A beturanga server game document → GameRecord (docs/beturanga.md). Turns come from
 * `history`: a roll entry follows a `-` entry of its side; one entry is written per
 * micro-move played; the turn's last micro-move shows in the next side's `-` entry, unless
 * the turn passed (the board is unchanged). The moves themselves come from `moves`, in order.
 * A game that ended mid-turn has no closing entry: every micro-move of its last turn has an
 * entry of its own. Thinking times are the time from a turn's `-` entry to the next one; the
 * players' `timeleft` is the clock after the last turn.
 */
export function parseBeturanga(doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt): GameRecordInput {
  if (!isObj(doc)) fail('record.bad-field', 'a beturanga game must be a JSON object');
  attempt.id = objectId(doc._id) ?? optString(doc, 'id');
  if (attempt.id === null) notes.add('id:derived');
  const settings = isObj(doc.settings) ? doc.settings : {};
  const historyTexts = reqArray(doc, 'history');
  if (historyTexts.length === 0) fail('record.missing-field', 'field "history" has no entries');
  const history = historyTexts.map((h, i) => parseEntry(h, `history[${i}]`, notes));
  const start = settings.fen === undefined || settings.fen === null ? history[0] : parseEntry(settings.fen, 'settings.fen', notes, false);
  if (settings.fen === undefined || settings.fen === null) notes.add('beturanga:start-from-history');
  const startFen = checkFen(`${start.board} ${start.side} ${start.castling} ${start.ep} 0 1`, 'start', 'settings.fen');
  const moves = reqArray(doc, 'moves').map((m, i) => moveOf(m, i, notes));
  const turns = turnsOf(history, moves, place, notes);
  const players = playersOf(doc.players);
  const last = turns[turns.length - 1];
  if (last && (players.clocks.w !== null || players.clocks.b !== null)) {
    // The final clocks alone cannot judge the last turn's time: it keeps no thinking time.
    last.clockMs = players.clocks;
    last.thinkingMs = null;
  }
  const { result, termination } = resultOf(doc.result, doc.status, notes);
  const bet = optNumber(settings, 'bet', 'settings.');
  const multiplier = isObj(doc.doubling) ? optNumber(doc.doubling, 'multiplier', 'doubling.') : null;
  if (settings.doubling === true) notes.add('beturanga:doubling-on');
  const first = history[0].ts;
  const end = history[history.length - 1].ts;
  return {
    id: attempt.id ?? place.derivedId,
    site: 'beturanga.com',
    format: 'beturanga',
    location: place.location,
    startFen,
    startedAt: dateOf(doc.created) ?? (first === null ? null : new Date(first).toISOString()),
    finishedAt: end === null ? null : new Date(end).toISOString(),
    players: { white: players.white, black: players.black },
    timeControl: timeControlOf(settings.timeControl),
    stakes: bet === null ? null : { initial: bet, final: bet * (multiplier ?? 1), currency: null },
    turns,
    result,
    termination,
  };
}

interface RecordedMove {
  side: Side;
  uci: string;
}

function moveOf(m: unknown, i: number, notes: Set<string>): RecordedMove {
  if (!isObj(m)) fail('record.bad-move', `moves[${i}] must be an object with color and move, not ${describe(m)}`);
  const side = m.color;
  if (side !== 'w' && side !== 'b') fail('record.bad-field', `moves[${i}].color ${describe(side)} is not w or b`);
  if (typeof m.move !== 'string') fail('record.bad-move', `moves[${i}].move ${describe(m.move)} is not a UCI move`);
  return { side, uci: normaliseUci(m.move, notes) };
}

/** The turns of `history`, each with its moves taken in order from `moves`. */
function turnsOf(history: Entry[], moves: RecordedMove[], place: DocPlace, notes: Set<string>): GameRecordInput['turns'] {
  const turns: GameRecordInput['turns'] = [];
  let next = 0;
  let i = 0;
  while (i < history.length) {
    const start = history[i];
    if (start.dice !== null) fail('record.bad-field', `history[${i}] holds dice "${start.diceText}" where a turn starts (a "-" entry before the roll)`);
    const roll = history[i + 1];
    // The game ended before this side rolled: its `-` entry is the last one.
    if (roll === undefined || roll.dice === null) {
      if (roll === undefined) break;
      fail('record.bad-field', `history[${i + 1}] follows a "-" entry without a roll`);
    }
    if (roll.side !== start.side) fail('record.bad-field', `history[${i + 1}] rolls for ${roll.side} after ${start.side}'s "-" entry`);
    const caseSide = diceCase(roll.diceText);
    if (caseSide !== null && caseSide !== start.side) notes.add('beturanga:dice-case-differs');
    // Micro-move entries: same side, dice still shown.
    let j = i + 2;
    while (j < history.length && history[j].dice !== null && history[j].side === start.side) j++;
    const closing = history[j];
    if (closing !== undefined && closing.dice !== null) fail('record.bad-field', `history[${j}] shows dice of ${closing.side} in ${start.side}'s turn`);
    const lastOfTurn = history[j - 1];
    const count = j - (i + 2) + (closing !== undefined && closing.board !== lastOfTurn.board ? 1 : 0);
    const played: string[] = [];
    for (let k = 0; k < count; k++) {
      const m = moves[next++];
      if (m === undefined) fail('record.bad-field', `history shows more micro-moves than "moves" holds (turn ${turns.length + 1})`);
      if (m.side !== start.side) fail('record.bad-field', `moves[${next - 1}] is ${m.side}'s, but history shows ${start.side}'s turn ${turns.length + 1} there`);
      played.push(m.uci);
    }
    const after = closing ?? lastOfTurn;
    const endTs = after.ts;
    turns.push({
      side: start.side,
      dice: roll.dice,
      diceOrder: 'roll',
      moves: played,
      fenAfter: checkFen(entryFen(after), 'turn', () => `history[${closing ? j : j - 1}]`),
      thinkingMs: endTs !== null && start.ts !== null ? endTs - start.ts : null,
      location: `${place.location}#history ${i}`,
    });
    if (closing === undefined) break;
    i = j;
  }
  if (next < moves.length) fail('record.bad-field', `"moves" holds ${moves.length} micro-moves, history shows ${next}`);
  const final = history[history.length - 1];
  if (turns.length > 0 && !/K/.test(final.board) !== !/k/.test(final.board)) {
    const taken: Side = /K/.test(final.board) ? 'b' : 'w';
    if (final.side === taken) notes.add('beturanga:final-fen-captured-side-to-move');
  }
  return turns;
}

const diceCase = (t: string): Side | null => (t === t.toUpperCase() && t !== t.toLowerCase() ? 'w' : t === t.toLowerCase() && t !== t.toUpperCase() ? 'b' : null);

interface Players {
  white: Player;
  black: Player;
  clocks: { w: number | null; b: number | null };
}

function playersOf(v: unknown): Players {
  const empty = (): Player => ({ id: null, name: null, kind: null, rating: null });
  const out: Players = { white: empty(), black: empty(), clocks: { w: null, b: null } };
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) fail('record.bad-field', `field "players" must be a list, not ${describe(v)}`);
  v.forEach((p, i) => {
    if (!isObj(p)) fail('record.bad-field', `players[${i}] must be an object`);
    const color = p.color;
    if (color !== 'w' && color !== 'b') fail('record.bad-field', `players[${i}].color ${describe(color)} is not w or b`);
    const where = `players[${i}].`;
    const player: Player = {
      id: objectId(p.user) ?? optString(p, 'id', where),
      name: optString(p, 'name', where),
      kind: p.bot === true ? 'bot' : p.bot === false ? 'human' : null,
      rating: optNumber(p, 'rating', where),
    };
    if (color === 'w') out.white = player;
    else out.black = player;
    out.clocks[color] = optNumber(p, 'timeleft', where);
  });
  return out;
}

/** `settings.timeControl`: `time` in minutes, `increment` in seconds. */
function timeControlOf(v: unknown): TimeControl | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) fail('record.bad-field', `settings.timeControl must be an object, not ${describe(v)}`);
  const minutes = optNumber(v, 'time', 'settings.timeControl.');
  const seconds = optNumber(v, 'increment', 'settings.timeControl.') ?? 0;
  if (minutes === null || minutes <= 0) return { kind: 'unlimited', initialMs: null, incrementMs: null, perMoveMs: null };
  const initialMs = Math.round(minutes * 60_000);
  const incrementMs = Math.round(seconds * 1000);
  return { kind: incrementMs > 0 ? 'fischer' : 'sudden-death', initialMs, incrementMs, perMoveMs: null };
}

/** The document's `result.cause` → the tool's termination. */
export const CAUSES: Record<string, GameRecordInput['termination']> = {
  capture: 'king_captured',
  resign: 'resign',
  surrender: 'resign',
  time: 'timeout',
  timeout: 'timeout',
  draw: 'draw_agreement',
  agreement: 'draw_agreement',
  double: 'double_declined',
  abort: 'aborted',
  aborted: 'aborted',
};

function resultOf(v: unknown, status: unknown, notes: Set<string>): { result: GameRecordInput['result']; termination: GameRecordInput['termination'] } {
  if (v === undefined || v === null) {
    if (status !== 'finished') notes.add('beturanga:unfinished');
    return { result: null, termination: 'unknown' };
  }
  if (!isObj(v)) fail('record.bad-field', `field "result" must be an object with winner and cause, not ${describe(v)}`);
  const winner = v.winner;
  if (winner !== 'w' && winner !== 'b' && winner !== null && winner !== undefined && winner !== '') fail('record.bad-field', `result.winner ${describe(winner)} is not w, b or empty`);
  const cause = typeof v.cause === 'string' ? v.cause : null;
  let termination = cause === null ? 'unknown' : (CAUSES[cause.toLowerCase()] ?? null);
  if (termination === null) {
    notes.add(`beturanga:cause-unknown:${cause}`);
    termination = 'unknown';
  }
  const result = winner === 'w' ? 'white' : winner === 'b' ? 'black' : termination === 'draw_agreement' ? 'draw' : null;
  return { result, termination };
}

/** A Mongo id as the server writes it: `ObjectId("…")` text, `{ "$oid": "…" }`, or plain text. */
export function objectId(v: unknown): string | null {
  if (isObj(v) && typeof v.$oid === 'string') return v.$oid;
  if (typeof v !== 'string' || v === '') return null;
  const m = /^ObjectId\("([^"]*)"\)$/.exec(v);
  return m ? m[1] : v;
}

/** A Mongo date: `ISODate("…")` text, `{ "$date": … }`, ISO text or epoch ms. */
export function dateOf(v: unknown): string | null {
  const raw = isObj(v) ? v.$date : v;
  if (typeof raw === 'number' && Number.isFinite(raw)) return new Date(raw).toISOString();
  if (typeof raw !== 'string' || raw === '') return null;
  const m = /^ISODate\("([^"]*)"\)$/.exec(raw);
  const text = m ? m[1] : raw;
  return Number.isFinite(Date.parse(text)) ? text : null;
}

export type { Obj };
