import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormatName, GameRecord } from './model/game-record.js';
import { GameRecord as Schema } from './model/game-record-schema.js';
import { makeHistoryRow } from './formats/dicechess-com/history-list.js';
import { collect, fixture, records, unreadables } from './test-support/collect.js';
import { randomGame } from './test-support/random-game.js';
import { makeRecordText, writeRecords } from './write.js';
import { tempDir } from '../test-support/temp-dir.js';

const dir = tempDir('records-roundtrip-');
let fileNo = 0;

async function writeToString(format: FormatName, rs: GameRecord[]): Promise<string> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeRecords(format, rs, out);
  out.end();
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes records in a format and reads them back (with a history list for dicechess.com). */
async function roundTrip(format: FormatName, rs: GameRecord[]): Promise<GameRecord[]> {
  const file = path.join(dir, `${fileNo++}.${format}`);
  writeFileSync(file, await writeToString(format, rs));
  let historyList: string | undefined;
  if (format === 'dicechess-com') {
    historyList = path.join(dir, `${fileNo++}.history.json`);
    writeFileSync(historyList, JSON.stringify(rs.map(makeHistoryRow)));
  }
  const items = await collect([file], { format, historyList });
  expect(unreadables(items)).toEqual([]);
  return records(items);
}

const withoutPlaces = (r: GameRecord) => ({ ...r, location: null, notes: [], format: 'ndjson', turns: r.turns.map((t) => ({ ...t, location: null })) });
const fen4 = (fen: string | null) => fen?.split(' ').slice(0, 4).join(' ') ?? null;

/** The fields each format carries, in the form its reader gives them back. */
const PROJECTIONS: Record<FormatName, (r: GameRecord) => unknown> = {
  ndjson: (r) => withoutPlaces(r),
  'ingest-wire': (r) => ({
    ...withoutPlaces(r),
    chess960: null,
    finishedAt: null,
    rated: null,
    fairness: null,
    turns: r.turns.map((t) => ({ side: t.side, dice: t.dice, moves: t.moves, thinkingMs: t.thinkingMs, fenAfter: t.fenAfter })),
  }),
  history: (r) => ({
    id: r.id,
    site: r.site,
    startFen: r.startFen,
    finishedAt: r.finishedAt,
    rated: r.rated,
    players: r.players,
    timeControl: r.timeControl,
    turns: r.turns.map((t) => ({ side: t.side, dice: t.dice, diceOrder: 'roll', moves: t.moves, fenAfter: t.fenAfter })),
    result: r.result,
    termination: r.termination,
    fairness: r.fairness,
  }),
  csv: (r) => ({
    id: r.id,
    site: r.site,
    mode: r.mode,
    startFen: fen4(r.startFen),
    players: { white: { kind: r.players.white.kind, rating: r.players.white.rating }, black: { kind: r.players.black.kind, rating: r.players.black.rating } },
    turns: r.turns.map((t, i) => ({ side: t.side, dice: [...t.dice].sort(), moves: t.moves, fenAfter: i + 1 < r.turns.length ? fen4(t.fenAfter) : null })),
    result: r.result,
    termination: r.termination,
  }),
  'opening-book': (r) => ({
    startFen: `${fen4(r.startFen)!.split(' ').slice(0, 1)} ${r.turns[0].side} ${fen4(r.startFen)!.split(' ').slice(2).join(' ')}`,
    turn: { side: r.turns[0].side, dice: [...r.turns[0].dice].sort(), moves: r.turns[0].moves },
  }),
  'dicechess-com': (r) => ({
    id: r.id,
    startFen: r.startFen,
    mode: r.mode,
    startedAt: r.startedAt,
    players: {
      white: { id: r.players.white.id, kind: r.players.white.kind, rating: r.players.white.rating },
      black: { id: r.players.black.id, kind: r.players.black.kind, rating: r.players.black.rating },
    },
    timeControl: r.timeControl,
    stakes: r.stakes,
    turns: r.turns.map((t) => ({ side: t.side, dice: t.dice, moves: t.moves, clockMs: t.clockMs })),
    events: r.events.map((e) => ({ type: e.type, turn: e.turn, microMove: e.microMove, actor: e.type.startsWith('DOUBLE') ? e.actor : null })),
    result: r.result,
    termination: r.termination,
  }),
  beturanga: (r) => ({
    id: r.id,
    startFen: fen4(r.startFen),
    players: { white: { id: r.players.white.id, kind: r.players.white.kind }, black: { id: r.players.black.id, kind: r.players.black.kind } },
    timeControl: r.timeControl,
    turns: r.turns.map((t) => ({ side: t.side, dice: t.dice, moves: t.moves })),
    result: r.result,
    termination: r.termination,
  }),
};

const normalise = (format: FormatName, r: GameRecord) => {
  const p = PROJECTIONS[format](r) as Record<string, unknown>;
  return format === 'ndjson' ? p : JSON.parse(JSON.stringify(p));
};

describe('read → write → read is identity on what each format carries', () => {
  const cases: [FormatName, string][] = [
    ['dicechess-com', fixture('dicechess-com')],
    ['ingest-wire', fixture('ingest-wire')],
    ['history', fixture('history')],
    ['csv', fixture('csv', 'turns.csv')],
    ['opening-book', fixture('opening-book', 'book.tsv')],
    ['beturanga', fixture('beturanga', 'server-game.json')],
  ];
  for (const [format, source] of cases) {
    it(`${format}: same format and native NDJSON`, async () => {
      const historyList = format === 'dicechess-com' ? fixture('dicechess-com-history-list.json') : undefined;
      const first = records(await collect([source], { historyList }));
      expect(first.length).toBeGreaterThan(0);
      const again = await roundTrip(format, first);
      expect(again.map((r) => normalise(format, r))).toEqual(first.map((r) => normalise(format, r)));
      const native = await roundTrip('ndjson', first);
      expect(native.map(withoutPlaces)).toEqual(first.map(withoutPlaces));
      // The native reader keeps the source format and notes.
      expect(native.map((r) => [r.format, r.notes])).toEqual(first.map((r) => [r.format, r.notes]));
    });
  }
});

describe('canonical record → any format → read gives the fields that format carries', () => {
  const formats: FormatName[] = ['ndjson', 'ingest-wire', 'history', 'csv', 'opening-book', 'dicechess-com'];
  for (const format of formats) {
    it(`${format} (random notation-valid games)`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), async (seed, is960) => {
          const game = randomGame(seed, { chess960: is960 && format !== 'dicechess-com' });
          const back = await roundTrip(format, [game]);
          expect(back).toHaveLength(1);
          let expected = game;
          if (format === 'dicechess-com') {
            // The site's clocks are per step: each turn gets the clock of its last step; the start needs a player id key.
            expected = Schema.parse({ ...game, turns: game.turns.map((t) => ({ ...t, clockMs: null })), timeControl: null, result: null, termination: 'unknown' });
            const cleaned = Schema.parse({ ...back[0], turns: back[0].turns.map((t) => ({ ...t, clockMs: null })), timeControl: null, result: null, termination: 'unknown' });
            expect(normalise(format, cleaned)).toEqual(normalise(format, expected));
            return;
          }
          expect(normalise(format, back[0])).toEqual(normalise(format, expected));
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe('makeRecordText', () => {
  it('gives one record as text, with the CSV header', () => {
    const game = randomGame(7, { turns: 2 });
    expect(makeRecordText('csv', game).split('\n')[0]).toBe(
      'game_id,turn_number,fen,dice,side,moves,result,termination,mode,source,white_rating,black_rating,white_type,black_type',
    );
    expect(makeRecordText('ndjson', game).endsWith('\n')).toBe(true);
    expect(JSON.parse(makeRecordText('dicechess-com', game)).gameMoveHistoryStateMap['0'].dices).toEqual([]);
  });
});

describe('dicechess.com writer → reader keeps the negotiations', () => {
  it('a declined draw offer mid-turn (a step gap), an accepted double, a draw agreed at a turn boundary', async () => {
    const game = Schema.parse({
      id: 'neg-1',
      format: 'ndjson',
      mode: 'x2',
      startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      players: { white: { id: '5', kind: 'human' }, black: { id: '-6', kind: 'bot' } },
      stakes: { initial: 10, final: 20, currency: 'GOLD' },
      turns: [
        { side: 'w', dice: [1, 2, 1], diceOrder: 'roll', moves: ['e2e4', 'g1f3', 'd2d4'] },
        { side: 'b', dice: [2, 1, 6], diceOrder: 'roll', moves: ['b8c6', 'e7e5'] },
        { side: 'w', dice: [4, 4, 3], diceOrder: 'roll', moves: [] },
      ],
      events: [
        { type: 'DRAW_OFFER', turn: 1, microMove: 2, actor: 'b' },
        { type: 'DRAW_DECLINE', turn: 1, microMove: 2, actor: 'w' },
        { type: 'DOUBLE_OFFER', turn: 2, actor: 'b', bank: 40 },
        { type: 'DOUBLE_ACCEPT', turn: 2, actor: 'w', bank: 40 },
        { type: 'DRAW_OFFER', turn: 4, actor: 'w' },
        { type: 'DRAW_ACCEPT', turn: 4, actor: 'b' },
      ],
      result: 'draw',
      termination: 'draw_agreement',
    });
    const text = makeRecordText('dicechess-com', game);
    const steps = Object.keys(JSON.parse(text).gameMoveHistoryStateMap).map(Number);
    expect(steps.some((n, i) => i > 0 && n > steps[i - 1] + 1)).toBe(true);
    const [back] = await roundTrip('dicechess-com', [game]);
    expect(normalise('dicechess-com', back)).toEqual(normalise('dicechess-com', game));
    expect(back.turns[2].diceFlags).toEqual([0, 1, 2].map(() => ({ allowed: false, used: false })));
    expect(back.stakes).toEqual({ initial: 10, final: 20, currency: 'GOLD', settled: null });
  });
});
