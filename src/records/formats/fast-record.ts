import { turnKeysOnly } from '../model/checked-record.js';
import { EVENT_TYPES, FORMAT_NAMES, type GameRecord, TERMINATIONS } from '../model/game-record.js';

/**
 * A hand-written check of the canonical record shape for the native reader's hot
 * path (zod costs about as much as JSON.parse). It fills the same defaults as the
 * schema, in place, and answers null at the first doubt (moves must also be canonical
 * UCI), so zod and `checkNative` still decide and word every error. A property test
 * keeps the two in agreement.
 */
type O = Record<string, unknown>;

const isO = (v: unknown): v is O => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): boolean => typeof v === 'string';
const nStr = (v: unknown): boolean => v === null || typeof v === 'string';
const num = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const nNum = (v: unknown): boolean => v === null || num(v);
const int = (v: unknown): boolean => Number.isSafeInteger(v);

const FORMATS = new Set<unknown>(FORMAT_NAMES);
const TERMS = new Set<unknown>(TERMINATIONS);
const EVENTS = new Set<unknown>(EVENT_TYPES);
const RESULTS = new Set<unknown>(['white', 'black', 'draw', null]);
const SIDES = new Set<unknown>(['w', 'b']);
const ORDERS = new Set<unknown>(['roll', 'sorted', 'unknown']);
const KINDS = new Set<unknown>(['human', 'bot', null]);
const TC_KINDS = new Set<unknown>(['unlimited', 'sudden-death', 'fischer', 'per-move']);

const RECORD_KEYS = new Set([
  'id', 'site', 'format', 'location', 'mode', 'startFen', 'chess960', 'startedAt', 'finishedAt', 'rated', 'players',
  'timeControl', 'stakes', 'turns', 'events', 'result', 'termination', 'fairness', 'notes',
]);
const PLAYER_KEYS = new Set(['id', 'name', 'kind', 'rating']);

function onlyKeys(o: O, keys: Set<string>): boolean {
  for (const k in o) if (!keys.has(k)) return false;
  return true;
}

/** Lower-case UCI, as native records hold moves (the same test as CANONICAL_UCI, without a regex per move). */
function canonicalUci(m: unknown): boolean {
  if (typeof m !== 'string' || (m.length !== 4 && m.length !== 5)) return false;
  const file = (i: number): boolean => m.charCodeAt(i) >= 97 && m.charCodeAt(i) <= 104;
  const rank = (i: number): boolean => m.charCodeAt(i) >= 49 && m.charCodeAt(i) <= 56;
  if (!file(0) || !rank(1) || !file(2) || !rank(3)) return false;
  if (m.length === 4) return true;
  const p = m.charCodeAt(4);
  return p === 110 || p === 98 || p === 114 || p === 113;
}

/** Sets `o[k]` to `dflt` when absent; false when present and failing `ok`. */
function opt(o: O, k: string, ok: (v: unknown) => boolean, dflt: unknown): boolean {
  const v = o[k];
  if (v === undefined) {
    o[k] = dflt;
    return true;
  }
  return ok(v);
}

function clock(v: unknown): boolean {
  if (v === null) return true;
  if (!isO(v)) return false;
  for (const k in v) if (k !== 'w' && k !== 'b') return false;
  return 'w' in v && 'b' in v && nNum(v.w) && nNum(v.b);
}

function player(v: unknown): boolean {
  if (!isO(v) || !onlyKeys(v, PLAYER_KEYS)) return false;
  return opt(v, 'id', nStr, null) && opt(v, 'name', nStr, null) && opt(v, 'kind', (x) => KINDS.has(x), null) && opt(v, 'rating', nNum, null);
}

const flagsOk = (f: unknown): boolean =>
  f === null || (Array.isArray(f) && f.every((x) => isO(x) && Object.keys(x).length === 2 && typeof x.allowed === 'boolean' && typeof x.used === 'boolean'));

/** A fresh turn object in the schema's field order (one hidden class for all turns), or null. */
function turn(t: unknown): GameRecord['turns'][number] | null {
  if (!isO(t) || !turnKeysOnly(t)) return null;
  if (!SIDES.has(t.side)) return null;
  const dice = t.dice;
  if (!Array.isArray(dice)) return null;
  for (const d of dice) if (!int(d) || (d as number) < 1 || (d as number) > 6) return null;
  const moves = t.moves;
  if (!Array.isArray(moves)) return null;
  for (const m of moves) if (!canonicalUci(m)) return null;
  const diceOrder = t.diceOrder ?? 'unknown';
  const fenAfter = t.fenAfter ?? null;
  const clockMs = t.clockMs ?? null;
  const thinkingMs = t.thinkingMs ?? null;
  const diceFlags = t.diceFlags ?? null;
  const location = t.location ?? null;
  // `?? null` would also accept an explicit null where the schema has a default: it does allow null there.
  if (!ORDERS.has(diceOrder) || !nStr(fenAfter) || !nNum(thinkingMs) || !nStr(location) || !clock(clockMs) || !flagsOk(diceFlags)) return null;
  return {
    side: t.side as 'w' | 'b',
    dice: dice as number[],
    diceOrder: diceOrder as 'roll' | 'sorted' | 'unknown',
    moves: moves as string[],
    fenAfter: fenAfter as string | null,
    clockMs: clockMs as { w: number | null; b: number | null } | null,
    thinkingMs: thinkingMs as number | null,
    diceFlags: diceFlags as { allowed: boolean; used: boolean }[] | null,
    location: location as string | null,
  };
}

const nonNegInt = (v: unknown): boolean => v === null || (int(v) && (v as number) >= 0);

function timeControl(v: unknown): boolean {
  if (v === null) return true;
  if (!isO(v)) return false;
  for (const k in v) if (k !== 'kind' && k !== 'initialMs' && k !== 'incrementMs' && k !== 'perMoveMs') return false;
  return TC_KINDS.has(v.kind) && opt(v, 'initialMs', nonNegInt, null) && opt(v, 'incrementMs', nonNegInt, null) && opt(v, 'perMoveMs', nonNegInt, null);
}

function stakes(v: unknown): boolean {
  if (v === null) return true;
  if (!isO(v)) return false;
  for (const k in v) if (k !== 'initial' && k !== 'final' && k !== 'currency' && k !== 'settled') return false;
  return opt(v, 'initial', nNum, null) && opt(v, 'final', nNum, null) && opt(v, 'currency', nStr, null) && opt(v, 'settled', settled, null);
}

function settled(v: unknown): boolean {
  if (v === null) return true;
  if (!isO(v)) return false;
  for (const k in v) if (k !== 'side' && k !== 'amount') return false;
  return SIDES.has(v.side) && typeof v.amount === 'number' && Number.isFinite(v.amount);
}

function event(v: unknown): boolean {
  if (!isO(v)) return false;
  for (const k in v) if (k !== 'type' && k !== 'turn' && k !== 'microMove' && k !== 'actor' && k !== 'bank' && k !== 'clockMs') return false;
  if (!EVENTS.has(v.type) || !int(v.turn) || (v.turn as number) < 1) return false;
  return (
    opt(v, 'microMove', (x) => x === null || (int(x) && (x as number) >= 0), null) &&
    opt(v, 'actor', (x) => x === null || SIDES.has(x), null) &&
    opt(v, 'bank', nNum, null) &&
    opt(v, 'clockMs', clock, null)
  );
}

function fairness(v: unknown): boolean {
  if (v === null) return true;
  if (!isO(v) || !str(v.commit) || !str(v.serverSeed) || !isO(v.clientSeeds)) return false;
  for (const k in v) if (k !== 'commit' && k !== 'serverSeed' && k !== 'clientSeeds') return false;
  const c = v.clientSeeds;
  for (const k in c) if (k !== 'white' && k !== 'black') return false;
  return str(c.white) && str(c.black);
}

export function fastRecord(doc: unknown): GameRecord | null {
  if (!isO(doc) || !onlyKeys(doc, RECORD_KEYS)) return null;
  if (typeof doc.id !== 'string' || doc.id.length === 0 || !FORMATS.has(doc.format) || typeof doc.startFen !== 'string') return null;
  if (!('result' in doc) || !RESULTS.has(doc.result)) return null;
  const players = doc.players;
  if (!isO(players) || !onlyKeys(players, new Set(['white', 'black'])) || !player(players.white) || !player(players.black)) return null;
  const raw = doc.turns;
  if (!Array.isArray(raw)) return null;
  const turns: GameRecord['turns'] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const t = turn(raw[i]);
    if (t === null) return null;
    turns[i] = t;
  }
  doc.turns = turns;
  const ok =
    opt(doc, 'site', nStr, null) &&
    opt(doc, 'location', nStr, null) &&
    opt(doc, 'mode', (x) => x === null || x === 'classic' || x === 'x2', null) &&
    opt(doc, 'chess960', (x) => x === null || (int(x) && (x as number) >= 0 && (x as number) <= 959), null) &&
    opt(doc, 'startedAt', nStr, null) &&
    opt(doc, 'finishedAt', nStr, null) &&
    opt(doc, 'rated', (x) => x === null || typeof x === 'boolean', null) &&
    opt(doc, 'timeControl', timeControl, null) &&
    opt(doc, 'stakes', stakes, null) &&
    opt(doc, 'events', (x) => Array.isArray(x) && x.every(event), []) &&
    opt(doc, 'termination', (x) => TERMS.has(x), 'unknown') &&
    opt(doc, 'fairness', fairness, null) &&
    opt(doc, 'notes', (x) => Array.isArray(x) && x.every(str), []);
  return ok ? (doc as unknown as GameRecord) : null;
}
