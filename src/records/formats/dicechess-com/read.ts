import type { GameEvent, GameRecordInput, Player, Side, TimeControl } from '../../model/game-record.js';
import { type Obj, isObj } from '../../fields.js';
import { fail } from '../../items.js';
import type { Attempt, DocPlace } from '../format.js';
import { formedTurns } from '../../model/checked-record.js';
import { FenBoards, keepFenBoards } from '../../model/fen-boards.js';
import { reportedFaultNote } from '../../model/recording-faults.js';
import { type HistoryIndex, historyResult } from './history-list.js';
import { scanStateMap } from './scan.js';
import { type Clocks, type DiceKey, type Die, type Step, parseSteps, stepWhere } from './steps.js';

/**
 * A. dicechess.com `gameMoveHistoryStateMap` → GameRecord, by reading the steps as
 * docs/formats.md#state-maps explains: a roll is a step with new dice and no move; a micro-move
 * is a step with a move (its "highlight reset" twin follows); a pass is a roll whose
 * dice are all `allowed:false`; a rise of `bank` is an accepted double; trailing
 * steps with no move are an agreed draw (FEN unchanged, possibly mid-turn) or a
 * declined double (dice unchanged, FEN handed to the side that would roll); a
 * `leftTime` ≤ 0 in the last step is a timeout; a step-number gap with no change is
 * a draw offer that was declined. Metadata comes from the history list when given.
 */

interface TurnBuild {
  side: Side;
  dice: number[];
  /** The site's verdicts at the roll (kept in the record). */
  allowed: boolean[];
  /** The dice at the turn's latest roll or move: their verdicts say whether dice are left to play, and which were used. */
  now: Die[];
  diceKey: DiceKey;
  moves: string[];
  location: string;
  last: Step;
}

const other = (s: Side): Side => (s === 'w' ? 'b' : 'w');
const midTurn = (t: TurnBuild | null): boolean => {
  if (t === null) return false;
  for (const d of t.now) if (d.allowed && !d.used) return true;
  return false;
};

export function parseStateMap(doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt, history: HistoryIndex | null): GameRecordInput {
  if (!isObj(doc)) fail('record.bad-field', 'a dicechess.com game must be a JSON object');
  const map = doc.gameMoveHistoryStateMap;
  if (map === undefined || map === null) fail('record.no-state-map', 'a dicechess.com game without "gameMoveHistoryStateMap" (the site keeps no state map for bot games): nothing to replay');
  if (!isObj(map)) fail('record.bad-field', 'field "gameMoveHistoryStateMap" must be an object of steps');
  const id = gameId(doc.gameId, place, notes);
  attempt.id = id;
  return parseStateMapSteps(id, parseSteps(map, stepBase(place), notes), place, notes, history, null);
}

/**
 * The same from the document's bytes, read by the fast scanner where they have the compact
 * form (scan.ts); undefined otherwise, for the general path.
 */
export function parseStateMapBytes(bytes: Buffer, start: number, end: number, place: DocPlace, notes: Set<string>, attempt: Attempt, history: HistoryIndex | null): GameRecordInput | undefined {
  const scanned = scanStateMap(bytes, start, end, notes);
  if (scanned === undefined) return undefined;
  const id = gameId(scanned.gameId, place, notes);
  attempt.id = id;
  return parseStateMapSteps(id, scanned.steps, place, notes, history, scanned.squares);
}

/** A file holding one document is named alone (`game.json#step 33`); documents of a stream keep their line. */
const stepBase = (place: DocPlace): string => (place.line === 1 && /\.json(\.gz)?$/i.test(place.source) ? place.source : place.location);

/** `squares`: the boards the scanner wrote down (`Step.boardAt`), null for steps without them. */
function parseStateMapSteps(id: string, steps: Step[], place: DocPlace, notes: Set<string>, history: HistoryIndex | null, squares: Int8Array | null): GameRecordInput {
  const base = stepBase(place);
  const meta = history?.get(id) ?? null;
  if (history && !meta) notes.add('metadata:missing');

  const turns: TurnBuild[] = [];
  const events: GameEvent[] = [];
  let cur: TurnBuild | null = null;
  let afterMove = false;
  let trailing = 0;
  let handover: Side | null = null; // FEN handed to this side with the old dice: a double offer
  let sawDouble = false;
  const point = (): { turn: number; microMove: number | null } =>
    cur !== null && midTurn(cur) ? { turn: turns.length, microMove: cur.moves.length } : { turn: turns.length + 1, microMove: null };
  const open = (s: Step): TurnBuild => {
    // Dice all of one case name their side.
    const dice = s.dice;
    const first = dice.length > 0 ? dice[0].side : null;
    let oneCase = first !== null;
    const faces = new Array<number>(dice.length);
    const allowed = new Array<boolean>(dice.length);
    for (let i = 0; i < dice.length; i++) {
      const d = dice[i];
      if (d.side !== first) oneCase = false;
      faces[i] = d.face;
      allowed[i] = d.allowed;
    }
    const side: Side = oneCase ? first! : s.toMove;
    // The dice's case decides where the position names the other side: a boundary guessed from the case.
    if (side !== s.toMove) notes.add('record.turn-boundary-from-dice-case');
    const t: TurnBuild = {
      side,
      dice: faces,
      allowed,
      now: s.dice,
      diceKey: s.diceKey,
      moves: [],
      location: stepWhere(base, s.n),
      last: s,
    };
    turns.push(t);
    return t;
  };

  const turnOf: number[] = []; // per step, the index of the turn it belongs to (-1 before the first roll)
  let prev: Step | null = null;
  let blockedTrailing = false;
  for (const s of steps) {
    if (prev !== null && s.move === null && s.board !== prev.board) {
      // The board moved on without a move step: states were collapsed (a crawler dropped the
      // repeats), and the micro-moves between them are lost. Judging stops at that turn.
      // Mid-turn, the turn's own micro-moves are lost; between turns, a whole turn is.
      notes.add(reportedFaultNote('record.collapsed-states', cur !== null && midTurn(cur) ? turns.length : turns.length + 1));
      break;
    }
    if (prev !== null && s.n > prev.n + 1) {
      // Steps hidden during a draw offer; play goes on after them, so it was declined.
      notes.add('steps:gaps');
      notes.add('events:draw-offer-from-gap');
      const at = point();
      events.push({ type: 'DRAW_OFFER', ...at, actor: null, bank: null, clockMs: null }, { type: 'DRAW_DECLINE', ...at, actor: null, bank: null, clockMs: null });
    }
    if (s.move !== null) {
      if (cur === null || s.diceKey !== cur.diceKey) {
        notes.add('steps:missing-roll');
        cur = open(s);
      }
      cur.moves.push(s.move);
      cur.now = s.dice;
      cur.last = s;
      afterMove = true;
      trailing = 0;
      handover = null;
    } else if (s.dice.length > 0 && (cur === null || s.diceKey !== cur.diceKey)) {
      cur = open(s);
      afterMove = false;
      trailing = 0;
      handover = null;
    } else if (prev !== null && s.bank !== null && prev.bank !== null && s.bank > prev.bank) {
      const offerer = handover ?? (cur ? other(cur.side) : s.toMove);
      const at = point();
      events.push(
        { type: 'DOUBLE_OFFER', ...at, actor: offerer, bank: s.bank, clockMs: null },
        { type: 'DOUBLE_ACCEPT', ...at, actor: other(offerer), bank: s.bank, clockMs: null },
      );
      sawDouble = true;
      trailing = 0;
      handover = null;
      if (cur) cur.last = s;
    } else if (prev !== null && s.board !== prev.board) {
      fail('record.bad-field', `step ${s.n} changes the board without a move (a move step is missing)`, stepWhere(base, s.n));
    } else if (afterMove) {
      afterMove = false; // the highlight reset after a micro-move
      if (cur) cur.last = s;
    } else if (prev !== null) {
      if (s.toMove !== prev.toMove && cur !== null && !midTurn(cur)) handover = s.toMove;
      if (s.dice.length > 0 && s.dice.every((d) => !d.allowed)) blockedTrailing = true;
      trailing++;
    }
    turnOf.push(turns.length - 1);
    prev = s;
  }
  const last = steps[steps.length - 1];

  // How the game ended, from the strongest sign to the weakest.
  const clocks = clockSides(steps, turnOf, turns, meta);
  let result: 'white' | 'black' | 'draw' | null = null;
  let termination: GameRecordInput['termination'] = 'unknown';
  const kings = { w: last.board.includes('K'), b: last.board.includes('k') };
  const flagged = clocks && last.leftTime ? flaggedKey(last.leftTime, clocks) : null;
  if (kings.w !== kings.b) {
    termination = 'king_captured';
    result = kings.w ? 'white' : 'black';
  } else if (flagged !== null) {
    termination = 'timeout';
    result = other(clocks!.get(flagged)!) === 'w' ? 'white' : 'black';
  } else if (trailing > 0 && handover !== null) {
    termination = 'double_declined';
    result = handover === 'w' ? 'white' : 'black';
    // The site's trailing states after the decline show every die allowed:false: read as no turn.
    if (blockedTrailing) notes.add('record.trailing-blocked-dice');
    sawDouble = true;
    events.push(
      { type: 'DOUBLE_OFFER', turn: turns.length + 1, microMove: null, actor: handover, bank: last.bank === null ? null : last.bank * 2, clockMs: null },
      // The trailing steps keep the bank as it stood: a decline leaves the pot unchanged.
      { type: 'DOUBLE_DECLINE', turn: turns.length + 1, microMove: null, actor: other(handover), bank: last.bank, clockMs: null },
    );
  } else if (trailing > 0) {
    termination = 'draw_agreement';
    result = 'draw';
    const at = point();
    events.push({ type: 'DRAW_OFFER', ...at, actor: null, bank: null, clockMs: null }, { type: 'DRAW_ACCEPT', ...at, actor: null, bank: null, clockMs: null });
  }

  const metaResult = meta ? historyResult(meta) : null;
  if (metaResult !== null) {
    if (result !== null && result !== metaResult) notes.add('result:metadata-differs');
    if (termination === 'unknown') termination = metaResult === 'draw' ? 'draw_agreement' : 'resign';
    result = metaResult;
  }

  const first = steps[0];
  const stake = (bank: number | null): number | null => (bank === null ? null : bank / 2);
  const currency = meta && typeof meta.currency === 'string' ? meta.currency : null;
  const allowDoubling = meta && typeof meta.allowDoubling === 'boolean' ? meta.allowDoubling : null;
  const settled = meta ? settledOf(meta) : null;
  return keepFenBoards({
    id,
    site: 'dicechess.com',
    format: 'dicechess-com',
    location: base,
    mode: allowDoubling !== null ? (allowDoubling ? 'x2' : 'classic') : sawDouble ? 'x2' : null,
    startFen: first.fen,
    startedAt: startedAt(meta, id, notes),
    players: players(meta),
    timeControl: meta ? timeControl(meta, first, notes) : null,
    stakes: first.bank === null && currency === null && settled === null ? null : { initial: stake(first.bank), final: stake(last.bank), currency, settled },
    turns: recordTurns(turns, clocks),
    events,
    result,
    termination,
  }, squares === null ? undefined : fenBoards(turns, squares));
}

/**
 * The record's turns, pushed one by one: an array whose elements kind never changes. (`map`
 * made a holey array until the optimising compiler inlined it, then a packed one, and the code
 * that reads records was compiled again for each kind it met.) In the schema's form, every
 * value checked as the steps were read: not checked again (formedTurns).
 */
function recordTurns(turns: TurnBuild[], clocks: Map<string, Side> | null): GameRecordInput['turns'] {
  const out: GameRecordInput['turns'] = [];
  for (const t of turns) {
    out.push({
      side: t.side,
      dice: t.dice,
      diceOrder: 'roll',
      moves: t.moves,
      fenAfter: t.last.fen,
      clockMs: clocks && t.last.leftTime ? sideClocks(t.last.leftTime, clocks) : null,
      thinkingMs: null,
      diceFlags: flagsOf(t),
      location: t.location,
    });
  }
  return formedTurns(out);
}

/** The turns' boards after them as the scanner wrote them down: the judge compares squares instead of reading each `fenAfter`. */
function fenBoards(turns: TurnBuild[], squares: Int8Array): FenBoards {
  // Not zeroed: a board not copied keeps no text (`fens[t]` null), so the judge reads the text.
  const boards = FenBoards.upTo(turns.length);
  for (let t = 0; t < turns.length; t++) {
    const last = turns[t].last;
    if (last.boardAt >= 0) boards.copy(t, squares, last.boardAt, last.fen);
  }
  return boards;
}

/** A turn's dice flags: `allowed` at its roll, `used` at its last step. */
function flagsOf(t: TurnBuild): { allowed: boolean; used: boolean }[] {
  const out = new Array<{ allowed: boolean; used: boolean }>(t.allowed.length);
  for (let i = 0; i < out.length; i++) out[i] = { allowed: t.allowed[i], used: t.now[i].used };
  return out;
}

/** The listing player's `moneyDelta`, when the row says whose it is (`color`). */
function settledOf(row: Obj): { side: Side; amount: number } | null {
  const color = String(row.color ?? '').trim().toUpperCase();
  const amount = typeof row.moneyDelta === 'number' ? row.moneyDelta : typeof row.moneyDelta === 'string' && row.moneyDelta.trim() !== '' ? Number(row.moneyDelta) : NaN;
  if (!Number.isFinite(amount) || (color !== 'WHITE' && color !== 'BLACK')) return null;
  return { side: color === 'WHITE' ? 'w' : 'b', amount };
}

function gameId(given: unknown, place: DocPlace, notes: Set<string>): string {
  if (typeof given === 'string' && given !== '') return given;
  const file = place.derivedId.replace(/:\d+$/, '').replace(/(\.(json|ndjson|jsonl|gz))+$/i, '');
  if (place.line === 1 && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(file)) {
    notes.add('id:from-file-name');
    return file;
  }
  notes.add('id:derived');
  return place.derivedId;
}

/**
 * leftTime key → side: from the history list's ids, from keys named after sides, or from whose
 * clock moves during whose turn (step i's turn is `turns[turnOf[i]]`, none before the first roll).
 */
function clockSides(steps: Step[], turnOf: number[], turns: TurnBuild[], meta: Obj | null): Map<string, Side> | null {
  // The keys in the order first seen (a step has two: a list beats a Set here).
  const ordered: string[] = [];
  let seen: Step['leftTime'] = null;
  for (let i = 0; i < steps.length; i++) {
    const lt = steps[i].leftTime;
    // Steps whose clocks the scanner shared with the step before hold no new key.
    if (lt === null || lt === seen) continue;
    seen = lt;
    for (let j = 0; j < lt.keys.length; j++) if (!ordered.includes(lt.keys[j])) ordered.push(lt.keys[j]);
  }
  if (ordered.length === 0) return null;
  const keys = ordered;
  const map = new Map<string, Side>();
  if (meta && meta.whiteId !== undefined && meta.whiteId !== null && meta.blackId !== undefined && meta.blackId !== null) {
    map.set(String(meta.whiteId), 'w');
    map.set(String(meta.blackId), 'b');
    if (keys.every((k) => map.has(k))) return map;
    map.clear();
  }
  for (const k of keys) {
    const l = k.toLowerCase();
    if (l === 'w' || l === 'white') map.set(k, 'w');
    if (l === 'b' || l === 'black') map.set(k, 'b');
  }
  if (map.size === keys.length) return map;
  map.clear();
  // A clock that changes between two steps of one turn belongs to that turn's side: votes per
  // key (white's, black's), and the keys in the order of their first vote.
  const white = new Array<number>(keys.length).fill(0);
  const black = new Array<number>(keys.length).fill(0);
  const voted: number[] = [];
  for (let i = 1; i < steps.length; i++) {
    const before = steps[i - 1].leftTime;
    const now = steps[i].leftTime;
    const turn = turnOf[i] >= 0 ? turns[turnOf[i]] : undefined;
    // The scanner shares a step's clocks with the step before when their text is the same: nothing changed.
    if (before === null || now === null || turn === undefined || before === now) continue;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j];
      const a = before.keys.indexOf(k);
      const z = now.keys.indexOf(k);
      if (a >= 0 && z >= 0 && before.ms[a] !== now.ms[z]) {
        if (white[j] === 0 && black[j] === 0) voted.push(j);
        if (turn.side === 'w') white[j]++;
        else black[j]++;
      }
    }
  }
  for (const j of voted) if (white[j] !== black[j]) map.set(keys[j], white[j] > black[j] ? 'w' : 'b');
  let sides = 0;
  for (const s of map.values()) sides |= s === 'w' ? 1 : 2;
  if (ordered.length === 2 && map.size === 2 && sides === 3) return map;
  if (ordered.length === 2 && map.size === 1) {
    const [k, s] = map.entries().next().value as [string, Side];
    map.set(ordered.find((x) => x !== k)!, other(s));
    return map;
  }
  if (ordered.length !== 2) return null;
  return new Map([
    [ordered[0], 'w'],
    [ordered[1], 'b'],
  ]);
}

/** The first clock at or below zero of a side's key: who ran out of time. */
function flaggedKey(clocks: Clocks, sides: Map<string, Side>): string | null {
  for (let i = 0; i < clocks.keys.length; i++) if (clocks.ms[i] <= 0 && sides.has(clocks.keys[i])) return clocks.keys[i];
  return null;
}

function sideClocks(clocks: Clocks, sides: Map<string, Side>): { w: number | null; b: number | null } {
  const out: { w: number | null; b: number | null } = { w: null, b: null };
  for (let i = 0; i < clocks.keys.length; i++) {
    const s = sides.get(clocks.keys[i]);
    if (s) out[s] = clocks.ms[i];
  }
  return out;
}

function players(meta: Obj | null): { white: Player; black: Player } {
  const player = (id: unknown, rating: unknown): Player => {
    const sid = id === undefined || id === null ? null : String(id);
    return {
      id: sid,
      name: null,
      kind: sid === null ? null : Number(sid) < 0 ? 'bot' : 'human',
      rating: typeof rating === 'number' ? rating : rating !== null && rating !== undefined && Number.isFinite(Number(rating)) ? Number(rating) : null,
    };
  };
  return { white: player(meta?.whiteId, meta?.whiteRating), black: player(meta?.blackId, meta?.blackRating) };
}

/** Seconds, or minutes in old rows: the first clock reading decides, else a limit under 60 is taken as minutes. */
function timeControl(meta: Obj, first: Step, notes: Set<string>): TimeControl | null {
  const limit = Number(meta.timeLimit);
  if (meta.timeLimit === undefined || meta.timeLimit === null || !Number.isFinite(limit)) return null;
  const bonus = Number(meta.timeBonus ?? 0) || 0;
  const start = first.leftTime ? Math.max(...first.leftTime.ms) : NaN;
  let minutes: boolean;
  if (Number.isFinite(start) && Math.abs(start - limit * 60_000) < Math.abs(start - limit * 1000)) minutes = true;
  else if (Number.isFinite(start)) minutes = false;
  else minutes = limit > 0 && limit < 60;
  notes.add(minutes ? 'clock:minutes' : 'clock:seconds');
  const initialMs = Math.round(limit * (minutes ? 60_000 : 1000));
  return { kind: bonus > 0 ? 'fischer' : 'sudden-death', initialMs, incrementMs: Math.round(bonus * 1000), perMoveMs: null };
}

function startedAt(meta: Obj | null, id: string, notes: Set<string>): string | null {
  const t = meta?.startTime;
  if (typeof t === 'string' && t !== '') return t;
  if (typeof t === 'number' && Number.isFinite(t)) return new Date(t).toISOString();
  const ms = uuidV1Time(id);
  if (ms === null) return null;
  notes.add('startedAt:uuid-v1');
  return new Date(ms).toISOString();
}

/** A hex digit's value by char code (either case), -1 for any other character. */
const HEX = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) {
  HEX['0123456789abcdef'.charCodeAt(d)] = d;
  HEX['0123456789ABCDEF'.charCodeAt(d)] = d;
}

/** The hex digits from a to z of `id` as a number (at most 13 digits, exact), or -1 where one is not a hex digit. */
function hexAt(id: string, a: number, z: number): number {
  let v = 0;
  for (let i = a; i < z; i++) {
    const c = id.charCodeAt(i);
    const d = c < 128 ? HEX[c] : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/**
 * The creation time inside a version-1 UUID (`xxxxxxxx-xxxx-1xxx-xxxx-xxxxxxxxxxxx`, hex digits of
 * either case), in Unix milliseconds; null for any other text. Read by char codes: a pattern
 * and three parseInt calls per game cost more than the rest of its start time.
 */
export function uuidV1Time(id: string): number | null {
  if (id.length !== 36 || id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(14) !== 49 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45) return null;
  const lo = hexAt(id, 0, 8);
  const mid = hexAt(id, 9, 13);
  const high = hexAt(id, 15, 18);
  if (lo < 0 || mid < 0 || high < 0 || hexAt(id, 19, 23) < 0 || hexAt(id, 24, 36) < 0) return null;
  // 100 ns ticks since 1582: hi · 2³² + lo (60 bits), divided by 10,000 in two exact steps (every part stays below 2⁵³).
  const hi = high * 65536 + mid;
  const rest = hi % 10_000;
  return ((hi - rest) / 10_000) * 4_294_967_296 + Math.floor((rest * 4_294_967_296 + lo) / 10_000) - 12_219_292_800_000;
}
