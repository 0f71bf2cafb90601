import { describe, expect, it } from 'vitest';
import { byId, collect, fixture, records, unreadables } from '../test-support/collect.js';

const HISTORY_LIST = fixture('dicechess-com-history-list.json');

describe('dicechess.com state maps (A)', () => {
  it('derives turns, a forced pass, an accepted double, a declined draw offer (step gap) and a mid-turn agreed draw', async () => {
    const items = await collect([fixture('dicechess-com')], { historyList: HISTORY_LIST });
    const r = byId(items, '1f0c3a80-6d4e-11f0-9a6b-0242ac120002');
    expect(r.location).toMatch(/1f0c3a80-6d4e-11f0-9a6b-0242ac120002\.json$/);
    expect(r.turns.map((t) => [t.side, t.dice, t.moves])).toEqual([
      ['w', [1, 2, 5], ['e2e4', 'g1f3', 'd1e2']],
      ['b', [4, 3, 5], []],
      ['w', [6, 1, 1], ['d2d4', 'e1d1', 'a2a3']],
      ['b', [1, 2, 1], ['e7e5']],
    ]);
    expect(r.turns.every((t) => t.diceOrder === 'roll')).toBe(true);
    // The pass keeps the site's verdicts: nothing allowed.
    expect(r.turns[1].diceFlags).toEqual([0, 1, 2].map(() => ({ allowed: false, used: false })));
    expect(r.turns[3].diceFlags).toEqual([
      { allowed: true, used: true },
      { allowed: true, used: false },
      { allowed: true, used: false },
    ]);
    expect(r.events.map((e) => [e.type, e.turn, e.microMove, e.actor, e.bank])).toEqual([
      ['DRAW_OFFER', 2, null, null, null],
      ['DRAW_DECLINE', 2, null, null, null],
      ['DOUBLE_OFFER', 3, null, 'w', 40],
      ['DOUBLE_ACCEPT', 3, null, 'b', 40],
      ['DRAW_OFFER', 4, 1, null, null],
      ['DRAW_ACCEPT', 4, 1, null, null],
    ]);
    expect(r.result).toBe('draw');
    expect(r.termination).toBe('draw_agreement');
    expect(r.mode).toBe('x2');
    // The history list's moneyDelta, seen by its row's player (white here): a draw settles nothing.
    expect(r.stakes).toEqual({ initial: 10, final: 20, currency: 'GOLD', settled: { side: 'w', amount: 0 } });
    // Old history rows give the time limit in minutes: 3 → 180 s, confirmed by the first clock reading.
    expect(r.timeControl).toEqual({ kind: 'sudden-death', initialMs: 180_000, incrementMs: 0, perMoveMs: null });
    expect(r.players.white).toEqual({ id: '482', name: null, kind: 'human', rating: 1510 });
    expect(r.players.black).toEqual({ id: '-43', name: null, kind: 'bot', rating: 1480 });
    expect(r.turns[0].clockMs).toEqual({ w: 171_500, b: 180_000 });
    expect(r.notes).toEqual(expect.arrayContaining(['clock:minutes', 'squares:upper-case', 'steps:gaps', 'id:from-file-name', 'dice:letters']));
  });

  it('reads a timeout with a partial last turn, a declined double and two-dice castling from NDJSON', async () => {
    const items = await collect([fixture('dicechess-com', 'games.ndjson')], { historyList: HISTORY_LIST });
    const timeout = byId(items, 'a2a00000-0000-4000-8000-000000000001');
    expect(timeout.termination).toBe('timeout');
    expect(timeout.result).toBe('black');
    expect(timeout.turns).toHaveLength(1);
    expect(timeout.turns[0].moves).toEqual(['e2e4']);
    expect(timeout.turns[0].diceFlags?.map((f) => f.used)).toEqual([true, false, false]);
    expect(timeout.notes).toContain('metadata:missing');

    const declined = byId(items, 'a2b00000-0000-4000-8000-000000000002');
    expect(declined.termination).toBe('double_declined');
    expect(declined.result).toBe('black');
    expect(declined.events.map((e) => [e.type, e.turn, e.actor])).toEqual([
      ['DOUBLE_OFFER', 2, 'b'],
      ['DOUBLE_DECLINE', 2, 'w'],
    ]);
    expect(declined.timeControl?.initialMs).toBe(180_000);
    expect(declined.notes).toContain('clock:seconds');

    const castle = byId(items, 'a2c00000-0000-4000-8000-000000000003');
    expect(castle.turns.map((t) => t.moves)).toEqual([['e1g1', 'a1a8'], [], ['f1f8', 'f8e8']]);
    expect(castle.turns[0].diceFlags?.map((f) => f.used)).toEqual([true, true, true]);
    expect(castle.termination).toBe('king_captured');
    expect(castle.result).toBe('white');
    expect(castle.timeControl).toEqual({ kind: 'fischer', initialMs: 300_000, incrementMs: 5_000, perMoveMs: null });
    expect(castle.notes).toContain('castling:king-two-squares');

    const bad = unreadables(items);
    expect(bad.map((u) => [u.code, u.location?.replace(/^.*\//, ''), u.id])).toEqual([
      ['record.bad-fen', 'games.ndjson:4#step 2', 'a2d00000-0000-4000-8000-000000000004'],
      ['record.bad-json', 'games.ndjson:5', 'a2e00000-0000-4000-8000-000000000005'],
    ]);
  });

  it('without the history list: the clock owner from whose clock runs, the start time from the UUIDv1', async () => {
    const items = await collect([fixture('dicechess-com')]);
    const r = byId(items, '1f0c3a80-6d4e-11f0-9a6b-0242ac120002');
    expect(r.turns[0].clockMs).toEqual({ w: 171_500, b: 180_000 });
    expect(r.startedAt).toMatch(/^2025-07-/);
    expect(r.notes).toContain('startedAt:uuid-v1');
    expect(r.players.white.id).toBeNull();
    // Without the history list the two trailing steps mid-turn still read as an agreed draw.
    expect(r.termination).toBe('draw_agreement');
    const timeout = byId(items, 'a2a00000-0000-4000-8000-000000000001');
    expect(timeout.termination).toBe('timeout');
    expect(timeout.result).toBe('black');
  });
});

describe('ingest wire (B)', () => {
  it('reads NDJSON and a JSON array with dice as ints, letters (alphabetical, any case) and digits', async () => {
    const items = await collect([fixture('ingest-wire')]);
    // Files of a directory in path order: wire-array.json before wire.ndjson.
    expect(items.map((i) => (i.kind === 'record' ? i.record.id.slice(-2) : i.code))).toEqual([
      'c1', 'c2', 'b1', 'b2', 'record.bad-dice', 'record.bad-move', 'record.missing-field',
    ]);
    expect(items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const b1 = byId(items, '00000000-0000-0000-0000-0000000000b1');
    expect(b1.players.white).toEqual({ id: '482', name: 'alice', kind: 'human', rating: 1500 });
    expect(b1.timeControl).toEqual({ kind: 'fischer', initialMs: 300_000, incrementMs: 5_000, perMoveMs: null });
    expect(b1.stakes).toEqual({ initial: 10, final: 20, currency: 'GOLD', settled: null });
    expect(b1.turns[1].moves).toEqual([]);
    expect(b1.turns[0].thinkingMs).toBe(3500);
    expect(b1.events[0]).toEqual({ type: 'DOUBLE_OFFER', turn: 3, microMove: null, actor: 'w', bank: 40, clockMs: { w: 290_000, b: 300_000 } });
    expect(b1.result).toBe('white');

    const b2 = byId(items, '00000000-0000-0000-0000-0000000000b2');
    expect(b2.turns[0]).toMatchObject({ dice: [3, 6, 4], diceOrder: 'sorted', moves: ['e1g1'] });
    expect(b2.turns[1]).toMatchObject({ dice: [1, 2, 5], moves: ['b7b6', 'b6b5'] });
    expect(b2.notes).toEqual(expect.arrayContaining(['castling:king-takes-rook', 'dice:digits', 'dice:letters-alphabetical', 'squares:upper-case']));

    const c2 = byId(items, '00000000-0000-0000-0000-0000000000c2');
    expect(c2.turns[0].dice).toEqual([3, 6, 2]);
    expect(c2.notes).toEqual(expect.arrayContaining(['dice:letters-alphabetical', 'dice:lower-case-for-white']));
    expect(c2.location).toMatch(/wire-array\.json:17$/);

    const bad = unreadables(items);
    expect(bad[0].location).toMatch(/wire\.ndjson:3#turn 1$/);
    expect(bad[0].message).toMatch(/7 is not a die/);
    expect(bad[1].location).toMatch(/wire\.ndjson:4#turn 1$/);
    expect(bad[2].id).toBe('00000000-0000-0000-0000-0000000000b5');
  });
});

describe('history with fairness reveal (C)', () => {
  it('reads time controls, the fairness reveal, Chess960 starts and terminations', async () => {
    const items = await collect([fixture('history')]);
    const c1 = byId(items, '6b1d2c3e-0000-4000-8000-00000000c001');
    expect(c1.fairness).toEqual({
      commit: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
      serverSeed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
      clientSeeds: { white: 'alice', black: 'bob' },
    });
    expect(c1.turns.map((t) => t.dice)).toEqual([[1, 1, 4], [3, 3, 6], [5, 5, 2]]);
    expect(c1.turns.every((t) => t.diceOrder === 'roll')).toBe(true);
    expect(c1.players.white).toEqual({ id: null, name: 'house greedy', kind: 'bot', rating: null });
    expect(c1.rated).toBe(true);
    expect(c1.finishedAt).toBe('2026-07-30T21:05:00Z');
    expect(c1.timeControl).toEqual({ kind: 'fischer', initialMs: 300_000, incrementMs: 3_000, perMoveMs: null });
    const c2 = byId(items, '6b1d2c3e-0000-4000-8000-00000000c002');
    expect(c2.startFen).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(c2.timeControl).toEqual({ kind: 'sudden-death', initialMs: 180_000, incrementMs: null, perMoveMs: null });
    const c3 = byId(items, '6b1d2c3e-0000-4000-8000-00000000c003');
    expect(c3.chess960).toBe(0);
    expect(c3.termination).toBe('aborted');
    expect(c3.timeControl?.perMoveMs).toBe(10_000);
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.bad-dice', 'record.bad-field']);
  });
});

describe('per-turn CSV (D)', () => {
  it('groups rows into games and reads letter, alphabetical and digit dice', async () => {
    const items = await collect([fixture('csv', 'turns.csv')]);
    expect(items.map((i) => i.kind === 'record' ? 'record' : i.code)).toEqual(['record', 'record.bad-csv', 'record.bad-dice', 'record']);
    const g1 = byId(items, '00000000-0000-0000-0000-000000000001');
    expect(g1.turns.map((t) => [t.side, t.dice, t.moves])).toEqual([
      ['w', [1, 1, 5], ['e2e4', 'd2d4']],
      ['b', [4, 4, 3], []],
      ['w', [3, 6, 2], ['f1c4', 'g1f3', 'e1f1']],
      ['b', [1, 1, 5], ['e7e5', 'd8h4', 'h4f2']],
    ]);
    expect(g1.startFen).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -');
    expect(g1.turns[0].fenAfter).toBe('rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq -');
    expect(g1.players.white).toEqual({ id: null, name: null, kind: 'human', rating: 2394 });
    expect(g1.players.black.rating).toBeNull();
    expect(g1.result).toBe('black');
    expect(g1.notes).toEqual(expect.arrayContaining(['dice:letters-alphabetical', 'dice:digits', 'squares:upper-case']));
    const bad = unreadables(items);
    expect(bad[0].location).toMatch(/turns\.csv:7$/);
    expect(bad[1].location).toMatch(/turns\.csv:8$/);
  });
});

describe('opening book (E)', () => {
  it('reads one single-turn record per line with derived ids', async () => {
    const items = await collect([fixture('opening-book', 'book.tsv')]);
    const rs = records(items);
    expect(rs.map((r) => r.id)).toEqual(['book.tsv:2', 'book.tsv:3', 'book.tsv:4', 'book.tsv:5']);
    expect(rs[0].turns).toEqual([expect.objectContaining({ side: 'w', dice: [6, 1, 4], moves: ['a2a4', 'a1a3'] })]);
    expect(rs[2].turns[0]).toMatchObject({ side: 'b', dice: [4, 3, 5], moves: [] });
    expect(rs[3].turns[0]).toMatchObject({ dice: [1, 2, 5], moves: ['e2e4', 'b1c3'] });
    expect(rs[0].notes).toContain('id:derived');
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.bad-fen', 'record.bad-move']);
  });
});
