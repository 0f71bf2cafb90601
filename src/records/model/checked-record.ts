import { EVENT_TYPES, FORMAT_NAMES, type GameRecord, TERMINATIONS } from './game-record.js';

/**
 * The GameRecord schema checked by hand, for the readers' hot path (zod's `safeParse`
 * cost as much as the rest of a conversion). It answers what zod answers for a valid
 * record: a fresh object in the schema's field order with the defaults filled in (so
 * writers give the same bytes; a turn's dice and moves arrays are the input's own, as
 * its callers, the readers, keep no other hold on them), and null at the first doubt, so that zod still decides
 * and words every error. A test holds the two equal over every format's fixtures and
 * fuzz corpus.
 */
type O = Record<string, unknown>;

const BAD = Symbol('bad');
type Out<T> = T | typeof BAD;

const isO = (v: unknown): v is O => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const int = (v: unknown): v is number => Number.isSafeInteger(v);

/** `.nullable().default(null)`: absent or null → null, else the value when `ok`. */
const opt = <T>(v: unknown, ok: (x: unknown) => boolean): Out<T | null> => (v === undefined || v === null ? null : ok(v) ? (v as T) : BAD);
const isStr = (x: unknown): boolean => typeof x === 'string';
const nonNegInt = (x: unknown): boolean => int(x) && x >= 0;

const FORMATS = new Set<unknown>(FORMAT_NAMES);
const TERMS = new Set<unknown>(TERMINATIONS);
const EVENTS = new Set<unknown>(EVENT_TYPES);
const RESULTS = new Set<unknown>(['white', 'black', 'draw', null]);
const ORDERS = new Set<unknown>(['roll', 'sorted', 'unknown']);
const TC_KINDS = new Set<unknown>(['unlimited', 'sudden-death', 'fischer', 'per-move']);

function keysIn(o: O, allowed: readonly string[]): boolean {
  for (const k in o) if (!allowed.includes(k)) return false;
  return true;
}

// The key lists, made once (not a list per call).
const CLOCK_KEYS = ['w', 'b'];
const STAKES_KEYS = ['initial', 'final', 'currency', 'settled'];
const SETTLED_KEYS = ['side', 'amount'];
const FAIRNESS_KEYS = ['commit', 'serverSeed', 'clientSeeds'];
const SIDE_NAMES = ['white', 'black'];

const PLAYER_KEYS = ['id', 'name', 'kind', 'rating'];
function player(v: unknown): Out<GameRecord['players']['white']> {
  if (!isO(v) || !keysIn(v, PLAYER_KEYS)) return BAD;
  const id = opt<string>(v.id, isStr);
  const name = opt<string>(v.name, isStr);
  const kind = opt<'human' | 'bot'>(v.kind, (x) => x === 'human' || x === 'bot');
  const rating = opt<number>(v.rating, num);
  if (id === BAD || name === BAD || kind === BAD || rating === BAD) return BAD;
  return { id, name, kind, rating };
}

/** `{w, b}` clocks: both keys required, each a number or null. */
function clock(v: unknown): Out<{ w: number | null; b: number | null } | null> {
  if (v === undefined || v === null) return null;
  if (!isO(v) || !keysIn(v, CLOCK_KEYS)) return BAD;
  const { w, b } = v;
  if (!(w === null || num(w)) || !(b === null || num(b))) return BAD;
  return { w, b };
}

const TC_KEYS = ['kind', 'initialMs', 'incrementMs', 'perMoveMs'];
function timeControl(v: unknown): Out<GameRecord['timeControl']> {
  if (v === undefined || v === null) return null;
  if (!isO(v) || !keysIn(v, TC_KEYS) || !TC_KINDS.has(v.kind)) return BAD;
  const initialMs = opt<number>(v.initialMs, nonNegInt);
  const incrementMs = opt<number>(v.incrementMs, nonNegInt);
  const perMoveMs = opt<number>(v.perMoveMs, nonNegInt);
  if (initialMs === BAD || incrementMs === BAD || perMoveMs === BAD) return BAD;
  return { kind: v.kind as NonNullable<GameRecord['timeControl']>['kind'], initialMs, incrementMs, perMoveMs };
}

function stakes(v: unknown): Out<GameRecord['stakes']> {
  if (v === undefined || v === null) return null;
  if (!isO(v) || !keysIn(v, STAKES_KEYS)) return BAD;
  const initial = opt<number>(v.initial, num);
  const final = opt<number>(v.final, num);
  const currency = opt<string>(v.currency, isStr);
  const settled = settledOf(v.settled);
  if (initial === BAD || final === BAD || currency === BAD || settled === BAD) return BAD;
  return { initial, final, currency, settled };
}

function settledOf(v: unknown): Out<NonNullable<GameRecord['stakes']>['settled']> {
  if (v === undefined || v === null) return null;
  if (!isO(v) || !keysIn(v, SETTLED_KEYS) || (v.side !== 'w' && v.side !== 'b') || !num(v.amount)) return BAD;
  return { side: v.side, amount: v.amount as number };
}

function diceFlags(v: unknown): Out<GameRecord['turns'][number]['diceFlags']> {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v)) return BAD;
  const out = new Array<{ allowed: boolean; used: boolean }>(v.length);
  for (let i = 0; i < v.length; i++) {
    const f = v[i];
    if (!isO(f) || typeof f.allowed !== 'boolean' || typeof f.used !== 'boolean') return BAD;
    // Three flags a turn: the two keys compared directly.
    for (const k in f) if (k !== 'allowed' && k !== 'used') return BAD;
    out[i] = { allowed: f.allowed, used: f.used };
  }
  return out;
}

/** Turns are most of a record: a switch over the keys beats a list lookup per key (fast-record.ts uses it too). */
export function turnKeysOnly(t: O): boolean {
  for (const k in t) {
    switch (k) {
      case 'side':
      case 'dice':
      case 'diceOrder':
      case 'moves':
      case 'fenAfter':
      case 'clockMs':
      case 'thinkingMs':
      case 'diceFlags':
      case 'location':
        continue;
      default:
        return false;
    }
  }
  return true;
}

function turn(t: unknown): Out<GameRecord['turns'][number]> {
  if (!isO(t) || !turnKeysOnly(t)) return BAD;
  const side = t.side;
  if (side !== 'w' && side !== 'b') return BAD;
  const dice = t.dice;
  if (!Array.isArray(dice)) return BAD;
  for (let i = 0; i < dice.length; i++) {
    const d = dice[i];
    if (!int(d) || d < 1 || d > 6) return BAD;
  }
  const moves = t.moves;
  if (!Array.isArray(moves)) return BAD;
  for (let i = 0; i < moves.length; i++) if (typeof moves[i] !== 'string') return BAD;
  const diceOrder = t.diceOrder === undefined ? 'unknown' : t.diceOrder;
  if (!ORDERS.has(diceOrder)) return BAD;
  const fenAfter = opt<string>(t.fenAfter, isStr);
  const clockMs = clock(t.clockMs);
  const thinkingMs = opt<number>(t.thinkingMs, num);
  const flags = diceFlags(t.diceFlags);
  const location = opt<string>(t.location, isStr);
  if (fenAfter === BAD || clockMs === BAD || thinkingMs === BAD || flags === BAD || location === BAD) return BAD;
  return {
    side,
    dice: dice as number[],
    diceOrder: diceOrder as 'roll' | 'sorted' | 'unknown',
    moves: moves as string[],
    fenAfter,
    clockMs,
    thinkingMs,
    diceFlags: flags,
    location,
  };
}

const EVENT_KEYS = ['type', 'turn', 'microMove', 'actor', 'bank', 'clockMs'];
function event(v: unknown): Out<GameRecord['events'][number]> {
  if (!isO(v) || !keysIn(v, EVENT_KEYS) || !EVENTS.has(v.type) || !int(v.turn) || v.turn < 1) return BAD;
  const microMove = opt<number>(v.microMove, nonNegInt);
  const actor = opt<'w' | 'b'>(v.actor, (x) => x === 'w' || x === 'b');
  const bank = opt<number>(v.bank, num);
  const clockMs = clock(v.clockMs);
  if (microMove === BAD || actor === BAD || bank === BAD || clockMs === BAD) return BAD;
  return { type: v.type as GameRecord['events'][number]['type'], turn: v.turn, microMove, actor, bank, clockMs };
}

function fairness(v: unknown): Out<GameRecord['fairness']> {
  if (v === undefined || v === null) return null;
  if (!isO(v) || !keysIn(v, FAIRNESS_KEYS)) return BAD;
  const c = v.clientSeeds;
  if (typeof v.commit !== 'string' || typeof v.serverSeed !== 'string' || !isO(c) || !keysIn(c, SIDE_NAMES)) return BAD;
  if (typeof c.white !== 'string' || typeof c.black !== 'string') return BAD;
  return { commit: v.commit, serverSeed: v.serverSeed, clientSeeds: { white: c.white, black: c.black } };
}

function list<T>(v: unknown, each: (x: unknown) => Out<T>): Out<T[]> {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return BAD;
  const out = new Array<T>(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = each(v[i]);
    if (x === BAD) return BAD;
    out[i] = x;
  }
  return out;
}

/**
 * Turn lists a reader built in the schema's form by construction (each turn's fields in the
 * schema's order, defaults filled in, every value of its type and range: the ingest-wire scanner's,
 * the state maps'): taken as they are, as the check would give them back (the readers' last
 * steps change only a move's or a FEN's text in place). The check of every turn cost a tenth of
 * a chess record's decoding; the readers' tests hold each such list to `checkedTurns`.
 */
const formed = new WeakSet<object>();

/** Marks `turns` as built in the schema's form (see `formed`). */
export function formedTurns<T extends object>(turns: T): T {
  formed.add(turns);
  return turns;
}

/** The turns as the check gives them back, or null where zod might not accept one (for the tests of `formedTurns`). */
export function checkedTurns(turns: unknown): GameRecord['turns'] | null {
  const out = list(turns, turn);
  return out === BAD ? null : out;
}

const RECORD_KEYS = [
  'id', 'site', 'format', 'location', 'mode', 'startFen', 'chess960', 'startedAt', 'finishedAt', 'rated', 'players',
  'timeControl', 'stakes', 'turns', 'events', 'result', 'termination', 'fairness', 'notes',
];

/** The record as zod's `GameRecord.parse` gives it, or null where zod might not accept it. */
export function checkedRecord(v: unknown): GameRecord | null {
  if (!isO(v) || !keysIn(v, RECORD_KEYS)) return null;
  if (typeof v.id !== 'string' || v.id.length === 0 || !FORMATS.has(v.format) || typeof v.startFen !== 'string') return null;
  if (v.result === undefined || !RESULTS.has(v.result)) return null;
  const players = v.players;
  if (!isO(players) || !keysIn(players, SIDE_NAMES)) return null;
  const white = player(players.white);
  const black = player(players.black);
  const site = opt<string>(v.site, isStr);
  const location = opt<string>(v.location, isStr);
  const mode = opt<'classic' | 'x2'>(v.mode, (x) => x === 'classic' || x === 'x2');
  const chess960 = opt<number>(v.chess960, (x) => int(x) && x >= 0 && x <= 959);
  const startedAt = opt<string>(v.startedAt, isStr);
  const finishedAt = opt<string>(v.finishedAt, isStr);
  const rated = opt<boolean>(v.rated, (x) => typeof x === 'boolean');
  const tc = timeControl(v.timeControl);
  const st = stakes(v.stakes);
  if (!Array.isArray(v.turns)) return null;
  const turns = formed.has(v.turns) ? (v.turns as GameRecord['turns']) : list(v.turns, turn);
  const events = list(v.events, event);
  const termination = v.termination === undefined ? 'unknown' : v.termination;
  const fair = fairness(v.fairness);
  const notes = list<string>(v.notes, (x) => (typeof x === 'string' ? x : BAD));
  if (
    white === BAD || black === BAD || site === BAD || location === BAD || mode === BAD || chess960 === BAD || startedAt === BAD ||
    finishedAt === BAD || rated === BAD || tc === BAD || st === BAD || turns === BAD || events === BAD || !TERMS.has(termination) ||
    fair === BAD || notes === BAD
  ) {
    return null;
  }
  return {
    id: v.id,
    site,
    format: v.format as GameRecord['format'],
    location,
    mode,
    startFen: v.startFen,
    chess960,
    startedAt,
    finishedAt,
    rated,
    players: { white, black },
    timeControl: tc,
    stakes: st,
    turns,
    events,
    result: v.result as GameRecord['result'],
    termination: termination as GameRecord['termination'],
    fairness: fair,
    notes,
  };
}
