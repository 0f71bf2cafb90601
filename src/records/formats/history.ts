import type { GameRecord, GameRecordInput, Player, TimeControl } from '../model/game-record.js';
import { TERMINATIONS } from '../model/game-record.js';
import { type Obj, describe, isObj, optBoolean, optNumber, optString, reqArray, reqObj, reqString } from '../fields.js';
import { FenBoards, keepFenBoards } from '../model/fen-boards.js';
import { fail, mapWithin } from '../items.js';
import { parseDice } from '../notation/dice.js';
import { checkFen } from '../notation/fen.js';
import { parseResult, parseSide, resultNumber } from '../notation/result.js';
import { normaliseUci } from '../notation/uci.js';
import { type Attempt, type DocPlace, type FormatModule, jsonFormat } from './format.js';

/**
 * C. Finished-game history of the Fortemate play site, with the fairness reveal.
 * Dice are ints in roll order (the fairness check needs that order).
 */
function parseHistory(doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt): GameRecordInput {
  if (!isObj(doc)) fail('record.bad-field', 'a history record must be a JSON object');
  attempt.id = optString(doc, 'gameId');
  if (attempt.id === null) notes.add('id:derived');
  const players = reqObj(doc, 'players');
  const termination = optString(doc, 'termination') ?? 'unknown';
  if (!(TERMINATIONS as readonly string[]).includes(termination)) fail('record.bad-field', `termination "${termination}" is not one the schema knows`);
  // Field by field in the order a problem is looked for (the first one found is the one reported).
  const site = optString(doc, 'site');
  const startFen = checkFen(doc.initialDfen, 'start', 'field "initialDfen"');
  const finishedAt = optString(doc, 'finishedAt');
  const rated = optBoolean(doc, 'rated');
  const white = convertPlayer(players.white, 'white');
  const black = convertPlayer(players.black, 'black');
  const timeControl = doc.timeControl === undefined || doc.timeControl === null ? null : convertTimeControl(doc.timeControl);
  const turnDocs = reqArray(doc, 'turns');
  const boards = new FenBoards(turnDocs.length);
  const turns = mapWithin(turnDocs, (t, i) => `${place.location}#turn ${turnNumber(t, i)}`, (t, i) => convertTurn(t, i, place, notes, boards));
  const result = parseResult(doc.result);
  const fairness = doc.fairness === undefined || doc.fairness === null ? null : convertFairness(doc.fairness);
  return keepFenBoards(
    {
      id: attempt.id ?? place.derivedId,
      site,
      format: 'history',
      location: place.location,
      startFen,
      finishedAt,
      rated,
      players: { white, black },
      timeControl,
      turns,
      result,
      termination: termination as GameRecordInput['termination'],
      fairness,
    },
    boards,
  );
}

function convertPlayer(v: unknown, side: string): Player {
  if (v === undefined || v === null) return { id: null, name: null, kind: null, rating: null };
  if (!isObj(v)) fail('record.bad-field', `field "players.${side}" must be an object`);
  const kind = optString(v, 'kind', `players.${side}.`);
  const k = kind === null ? null : kind.toLowerCase();
  if (k !== null && k !== 'bot' && k !== 'human') fail('record.bad-field', `players.${side}.kind "${kind}" is not Bot or Human`);
  return { id: optString(v, 'id', `players.${side}.`), name: optString(v, 'name', `players.${side}.`), kind: k, rating: optNumber(v, 'rating', `players.${side}.`) };
}

const ms = (o: Obj, key: string): number | null => {
  const s = optNumber(o, key, 'timeControl.');
  return s === null ? null : Math.round(s * 1000);
};

function convertTimeControl(v: unknown): TimeControl {
  if (!isObj(v) || Object.keys(v).length !== 1) fail('record.bad-field', `timeControl ${describe(v)} is not one of Unlimited, SuddenDeath, Fischer, PerMove`);
  const [name, body] = Object.entries(v)[0];
  const b: Obj = isObj(body) ? body : {};
  switch (name) {
    case 'Unlimited':
      return { kind: 'unlimited', initialMs: null, incrementMs: null, perMoveMs: null };
    case 'SuddenDeath':
      return { kind: 'sudden-death', initialMs: ms(b, 'initialSeconds'), incrementMs: null, perMoveMs: null };
    case 'Fischer':
      return { kind: 'fischer', initialMs: ms(b, 'initialSeconds'), incrementMs: ms(b, 'incrementSeconds'), perMoveMs: null };
    case 'PerMove':
      return { kind: 'per-move', initialMs: null, incrementMs: null, perMoveMs: ms(b, 'secondsPerMove') };
    default:
      fail('record.bad-field', `timeControl "${name}" is not one of Unlimited, SuddenDeath, Fischer, PerMove`);
  }
}

function convertTurn(t: unknown, i: number, place: DocPlace, notes: Set<string>, boards: FenBoards): GameRecordInput['turns'][number] {
  const where = `turns[${i}].`;
  if (!isObj(t)) fail('record.bad-field', `${where.slice(0, -1)} must be an object`);
  const side = parseSide(t.activeColor ?? fail('record.missing-field', `field "${where}activeColor" is missing`));
  if (t.dice === undefined || t.dice === null) fail('record.missing-field', `field "${where}dice" is missing`);
  const { dice, order } = parseDice(t.dice, side, notes, true);
  const moves = reqArray(t, 'moves', where).map((m) => normaliseUci(m, notes));
  const fenAfter = t.fenAfter === undefined || t.fenAfter === null || t.fenAfter === '' ? null : checkFen(t.fenAfter, 'turn', () => `field "${where}fenAfter"`, boards, i);
  const n = optNumber(t, 'turnNumber', where);
  return { side, dice, diceOrder: order, moves, fenAfter, location: `${place.location}#turn ${n ?? i + 1}` };
}

function convertFairness(v: unknown): GameRecordInput['fairness'] {
  if (!isObj(v)) fail('record.bad-field', 'field "fairness" must be an object');
  const seeds = reqObj(v, 'clientSeeds', 'fairness.');
  return {
    commit: reqString(v, 'commit', 'fairness.'),
    serverSeed: reqString(v, 'seed', 'fairness.'),
    clientSeeds: { white: reqString(seeds, 'white', 'fairness.clientSeeds.'), black: reqString(seeds, 'black', 'fairness.clientSeeds.') },
  };
}

const seconds = (v: number | null): number | null => (v === null ? null : v / 1000);

function timeControlOut(tc: TimeControl | null): Obj | null {
  if (tc === null) return null;
  if (tc.kind === 'unlimited') return { Unlimited: {} };
  if (tc.kind === 'sudden-death') return { SuddenDeath: { initialSeconds: seconds(tc.initialMs) } };
  if (tc.kind === 'fischer') return { Fischer: { initialSeconds: seconds(tc.initialMs), incrementSeconds: seconds(tc.incrementMs) } };
  return { PerMove: { secondsPerMove: seconds(tc.perMoveMs) } };
}

const side = (s: 'w' | 'b'): string => (s === 'w' ? 'White' : 'Black');
const playerOut = (p: Player): Obj => ({
  kind: p.kind === 'bot' ? 'Bot' : p.kind === 'human' ? 'Human' : null,
  name: p.name,
  ...(p.id === null ? {} : { id: p.id }),
  ...(p.rating === null ? {} : { rating: p.rating }),
});

export function makeHistory(r: GameRecord): Obj {
  return {
    gameId: r.id,
    ...(r.site === null ? {} : { site: r.site }),
    players: { white: playerOut(r.players.white), black: playerOut(r.players.black) },
    rated: r.rated,
    timeControl: timeControlOut(r.timeControl),
    result: resultNumber(r.result),
    termination: r.termination,
    finishedAt: r.finishedAt,
    initialDfen: r.startFen,
    turns: r.turns.map((t, i) => ({ turnNumber: i + 1, activeColor: side(t.side), dice: t.dice, moves: t.moves, fenAfter: t.fenAfter })),
    fairness: r.fairness === null ? null : { commit: r.fairness.commit, seed: r.fairness.serverSeed, clientSeeds: r.fairness.clientSeeds },
  };
}

export const historyFormat: FormatModule = jsonFormat('history', parseHistory, (r) => `${JSON.stringify(makeHistory(r))}\n`);

/** The source's turn number, for error locations. */
const turnNumber = (t: unknown, i: number): string | number => (isObj(t) && (typeof t.turnNumber === 'number' || typeof t.turnNumber === 'string') ? t.turnNumber : i + 1);
