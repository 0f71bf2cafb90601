import type { GameEvent, GameRecord, GameRecordInput, Player, TimeControl } from '../model/game-record.js';
import { EVENT_TYPES, TERMINATIONS } from '../model/game-record.js';
import { type Obj, isObj, optNumber, optString, reqArray, reqString } from '../fields.js';
import { FenBoards, keepFenBoards } from '../model/fen-boards.js';
import { fail, mapWithin } from '../items.js';
import { parseDice } from '../notation/dice.js';
import { checkFen } from '../notation/fen.js';
import { parseResult, parseSide, resultNumber } from '../notation/result.js';
import { normaliseUci } from '../notation/uci.js';
import { type Attempt, type DocPlace, type FormatModule, jsonFormat } from './format.js';
import { type ScannedIngestWire, scanIngestWire, turnSuffix } from './ingest-wire-scan.js';

/**
 * B. The per-turn JSON of the Fortemate analytics ingest ("ingest wire"): one object,
 * NDJSON or a JSON array. Clocks are seconds here; dice ints (letters and digit
 * strings from old exports are read too).
 */
function parseIngestWire(doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt, scanned?: ScannedIngestWire): GameRecordInput {
  if (!isObj(doc)) fail('record.bad-field', 'an ingest-wire record must be a JSON object');
  attempt.id = optString(doc, 'id');
  const id = attempt.id ?? place.derivedId;
  if (attempt.id === null) notes.add('id:derived');
  const startFen = checkFen(doc.initial_fen, 'start', 'field "initial_fen"');
  let turns: GameRecordInput['turns'];
  let boards: FenBoards;
  if (scanned === undefined) {
    const turnDocs = reqArray(doc, 'turns');
    boards = new FenBoards(turnDocs.length);
    turns = mapWithin(turnDocs, (t, i) => `${place.location}#turn ${turnNumber(t, i)}`, (t, i) => convertTurn(t, i, place, notes, boards));
  } else {
    // Read from the bytes already, as convertTurn reads them.
    ({ turns, boards } = scanned);
    if (scanned.diceInts) notes.add('dice:ints');
  }
  const mode = optString(doc, 'mode');
  if (mode !== null && mode !== 'classic' && mode !== 'x2') fail('record.bad-field', `mode "${mode}" is not classic or x2`);
  const termination = optString(doc, 'termination') ?? 'unknown';
  if (!(TERMINATIONS as readonly string[]).includes(termination)) fail('record.bad-field', `termination "${termination}" is not one the schema knows`);
  const initial = optNumber(doc, 'time_initial_sec');
  const increment = optNumber(doc, 'time_increment_sec');
  const timeControl: TimeControl | null =
    initial === null
      ? null
      : { kind: increment ? 'fischer' : 'sudden-death', initialMs: Math.round(initial * 1000), incrementMs: increment === null ? null : Math.round(increment * 1000), perMoveMs: null };
  const initialStake = optNumber(doc, 'initial_stake_amount');
  const finalStake = optNumber(doc, 'final_stake_amount');
  const currency = optString(doc, 'stake_currency');
  const events = Array.isArray(doc.events) ? doc.events.map((e, i) => convertEvent(e, i)) : [];
  return keepFenBoards({
    id,
    site: optString(doc, 'source'),
    format: 'ingest-wire',
    location: place.location,
    mode: mode as 'classic' | 'x2' | null,
    startFen,
    startedAt: optString(doc, 'started_at'),
    players: { white: convertPlayer(doc.white_player, 'white_player'), black: convertPlayer(doc.black_player, 'black_player') },
    timeControl,
    stakes: initialStake === null && finalStake === null && currency === null ? null : { initial: initialStake, final: finalStake, currency },
    turns,
    events,
    result: parseResult(doc.result),
    termination: termination as GameRecordInput['termination'],
  }, boards);
}

function convertPlayer(v: unknown, key: string): Player {
  if (v === undefined || v === null) return { id: null, name: null, kind: null, rating: null };
  if (!isObj(v)) fail('record.bad-field', `field "${key}" must be an object`);
  const type = optString(v, 'player_type', `${key}.`);
  const kind = type === null ? null : type.toLowerCase() === 'bot' ? 'bot' : type.toLowerCase() === 'human' ? 'human' : fail('record.bad-field', `${key}.player_type "${type}" is not human or bot`);
  return { id: optString(v, 'external_id', `${key}.`), name: optString(v, 'username', `${key}.`), kind, rating: optNumber(v, 'rating', `${key}.`) };
}

function convertTurn(t: unknown, i: number, place: DocPlace, notes: Set<string>, boards: FenBoards): GameRecordInput['turns'][number] {
  // The field path is put into words only for a problem: this runs for every recorded turn.
  const where = (): string => `turns[${i}].`;
  if (!isObj(t)) fail('record.bad-field', `${where().slice(0, -1)} must be an object`);
  const side = parseSide(t.active_color ?? fail('record.missing-field', `field "${where()}active_color" is missing`));
  if (t.dice === undefined || t.dice === null) fail('record.missing-field', `field "${where()}dice" is missing`);
  const { dice, order } = parseDice(t.dice, side, notes);
  const moves = canonicalMoves(Array.isArray(t.moves) ? t.moves : reqArray(t, 'moves', where()), notes);
  const fenAfter = t.fen_after === undefined || t.fen_after === null || t.fen_after === '' ? null : checkFen(t.fen_after, 'turn', () => `field "${where()}fen_after"`, boards, i);
  const n = finiteOr(t.turn_number) ?? optNumber(t, 'turn_number', where());
  const thinkingMs = finiteOr(t.thinking_time_ms) ?? optNumber(t, 'thinking_time_ms', where());
  return { side, dice, diceOrder: order, moves, fenAfter, thinkingMs, location: place.location + turnSuffix(n ?? i + 1) };
}

/** The moves as `normaliseUci` gives them: the document's own list when every move is canonical already (the usual case: no copy a turn). */
function canonicalMoves(list: unknown[], notes: Set<string>): string[] {
  let out: unknown[] = list;
  for (let i = 0; i < list.length; i++) {
    const m = normaliseUci(list[i], notes);
    if (m !== list[i]) {
      if (out === list) out = list.slice();
      out[i] = m;
    }
  }
  return out as string[];
}

/** A finite number as it is (what `optNumber` gives for one), else null (`optNumber` decides). */
const finiteOr = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function convertEvent(e: unknown, i: number): GameEvent {
  const where = `events[${i}].`;
  if (!isObj(e)) fail('record.bad-field', `${where.slice(0, -1)} must be an object`);
  const type = reqString(e, 'event_type', where);
  if (!(EVENT_TYPES as readonly string[]).includes(type)) fail('record.bad-field', `${where}event_type "${type}" is not a known event`);
  const turn = optNumber(e, 'turn_number', where);
  if (turn === null || !Number.isInteger(turn) || turn < 1) fail('record.bad-field', `${where}turn_number must be a whole number from 1`);
  const payload: Obj = isObj(e.payload) ? e.payload : {};
  const cw = optNumber(e, 'clock_white_ms', where);
  const cb = optNumber(e, 'clock_black_ms', where);
  const actor = e.actor_color === undefined || e.actor_color === null ? null : parseSide(e.actor_color);
  return {
    type: type as GameEvent['type'],
    turn,
    microMove: optNumber(payload, 'micro_move', `${where}payload.`),
    actor,
    bank: optNumber(payload, 'bank', `${where}payload.`),
    clockMs: cw === null && cb === null ? null : { w: cw, b: cb },
  };
}

/** One record as an ingest-wire object (`fen_after` as recorded; see `withFenAfter` to fill it). */
export function makeIngestWire(r: GameRecord): Obj {
  const player = (p: Player): Obj | null =>
    p.id === null && p.name === null && p.kind === null && p.rating === null
      ? null
      : { external_id: p.id, username: p.name, player_type: p.kind, rating: p.rating };
  const tc = r.timeControl;
  return {
    id: r.id,
    source: r.site,
    mode: r.mode,
    result: resultNumber(r.result),
    termination: r.termination,
    started_at: r.startedAt,
    time_initial_sec: tc?.initialMs == null ? null : tc.initialMs / 1000,
    time_increment_sec: tc?.incrementMs == null ? null : tc.incrementMs / 1000,
    initial_stake_amount: r.stakes?.initial ?? null,
    final_stake_amount: r.stakes?.final ?? null,
    stake_currency: r.stakes?.currency ?? null,
    white_player: player(r.players.white),
    black_player: player(r.players.black),
    initial_fen: r.startFen,
    turns: r.turns.map((t, i) => ({
      turn_number: i + 1,
      active_color: t.side,
      dice: t.dice,
      moves: t.moves,
      thinking_time_ms: t.thinkingMs,
      fen_after: t.fenAfter,
    })),
    events: r.events.map((e, i) => ({
      sequence_number: i + 1,
      turn_number: e.turn,
      event_type: e.type,
      actor_color: e.actor,
      clock_white_ms: e.clockMs?.w ?? null,
      clock_black_ms: e.clockMs?.b ?? null,
      payload: { ...(e.bank === null ? {} : { bank: e.bank }), ...(e.microMove === null ? {} : { micro_move: e.microMove }) },
    })),
  };
}

export const ingestWireFormat: FormatModule = jsonFormat(
  'ingest-wire',
  (doc, place, notes, attempt) => parseIngestWire(doc, place, notes, attempt),
  (r) => `${JSON.stringify(makeIngestWire(r))}\n`,
  readIngestWireBytes,
);

/**
 * The form this tool writes, its turns read from its bytes (as convertTurn reads JSON.parse's),
 * its other fields converted alike; undefined for a document of another form.
 */
export function readIngestWireBytes(bytes: Buffer, start: number, end: number, place: DocPlace, notes: Set<string>, attempt: Attempt): GameRecordInput | undefined {
  const scanned = scanIngestWire(bytes, start, end, place);
  return scanned === undefined ? undefined : parseIngestWire(scanned.fields, place, notes, attempt, scanned);
}

/** The source's turn number, for error locations. */
const turnNumber = (t: unknown, i: number): string | number => (isObj(t) && (typeof t.turn_number === 'number' || typeof t.turn_number === 'string') ? t.turn_number : i + 1);
