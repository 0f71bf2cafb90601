import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../detect.js';
import { TextSource } from '../../input/text-source.js';
import { collect, fixture, records, unreadables } from '../../test-support/collect.js';
import type { Draft } from '../../items.js';
import { beturangaFormat } from './index.js';
import { beturangaJsonSchema } from './schema.js';
import { makeBeturanga } from './write.js';

const SERVER_GAME = fixture('beturanga', 'server-game.json');

async function readText(text: string): Promise<Draft[]> {
  const out: Draft[] = [];
  for await (const d of beturangaFormat.read(TextSource.fromText('doc.ndjson', text), { sidecar: null })) out.push(d);
  return out;
}

const doc = (): Record<string, unknown> => JSON.parse(readFileSync(SERVER_GAME, 'utf8')) as Record<string, unknown>;

describe('beturanga server documents', () => {
  it('are told by their content', () => {
    expect(detectFormat(readFileSync(SERVER_GAME, 'utf8'))).toBe('beturanga');
  });

  it('give turns from history: roll after the "-" entry, a micro-move per entry, the last one in the next side\'s "-" entry, passes where the board stays', async () => {
    const [r] = records(await collect([SERVER_GAME]));
    expect(r.format).toBe('beturanga');
    expect(r.id).toBe('64a1c0ffee0000000000b001');
    expect(r.turns.map((t) => [t.side, t.dice, t.moves])).toEqual([
      ['w', [1, 5, 1], ['e2e4', 'd1h5', 'a2a3']],
      ['b', [6, 4, 5], []],
      ['w', [3, 6, 6], ['f1c4', 'e1e2', 'e2d3']],
      ['b', [2, 1, 2], ['g8f6', 'b8c6', 'd7d6']],
      ['w', [5, 2, 5], ['h5f7', 'f7e8']],
    ]);
    expect(r.turns[2].fenAfter).toBe('rnbqkbnr/pppppppp/8/7Q/2B1P3/P2K4/1PPP1PPP/RNB3NR b kq -');
    expect([r.result, r.termination]).toEqual(['white', 'king_captured']);
  });

  it('take thinking times from the entries\' times and the final clocks from timeleft', async () => {
    const [r] = records(await collect([SERVER_GAME]));
    expect(r.turns.slice(0, 4).map((t) => t.thinkingMs)).toEqual([10600, 4040, 8010, 10030]);
    expect(r.turns[4].clockMs).toEqual({ w: 164370, b: 171930 });
    expect(r.timeControl).toEqual({ kind: 'fischer', initialMs: 180_000, incrementMs: 3000, perMoveMs: null });
    expect(r.startedAt).toBe('2022-08-10T11:30:52.765Z');
  });

  it('read the real document\'s quirks and note them, never reject them', async () => {
    const [r] = records(await collect([SERVER_GAME]));
    // "…RNB1KBNR wKQkq - - 1660131067405": no space between side and castling.
    expect(r.notes).toContain('beturanga:side-castling-joined');
    // The final FEN names the captured side (black, whose king is gone) to move.
    expect(r.notes).toContain('beturanga:final-fen-captured-side-to-move');
    // settings.fen writes the side as "-".
    expect(r.notes).toContain('beturanga:side-dash');
    expect(r.startFen).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  });

  it('start Chess960 games from settings.fen', async () => {
    const d = doc();
    const settings = d.settings as Record<string, unknown>;
    settings.fen = 'nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN - KQkq - -';
    d.history = ['nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w KQkq - - 1660131052765'];
    d.moves = [];
    d.result = { winner: 'b', cause: 'resign' };
    const [draft] = await readText(`${JSON.stringify(d)}\n`);
    if (draft.kind !== 'record') throw new Error(JSON.stringify(draft));
    expect(draft.record.chess960).not.toBeNull();
    expect(draft.record.turns).toEqual([]);
    expect([draft.record.result, draft.record.termination]).toEqual(['black', 'resign']);
  });

  it('a game resigned mid-turn has no closing entry: each micro-move played has its own', async () => {
    const d = doc();
    const history = (d.history as string[]).slice(0, 3); // "-", roll PQP, after e2e4
    d.history = history;
    d.moves = [{ color: 'w', move: 'e2e4' }];
    d.result = { winner: 'b', cause: 'resign' };
    const [draft] = await readText(`${JSON.stringify(d)}\n`);
    if (draft.kind !== 'record') throw new Error(JSON.stringify(draft));
    expect(draft.record.turns.map((t) => [t.moves, t.fenAfter])).toEqual([[['e2e4'], 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3']]);
  });

  it('a history that shows more micro-moves than "moves" holds is one unreadable entry naming the turn', async () => {
    const d = doc();
    d.moves = (d.moves as unknown[]).slice(0, 4);
    const drafts = await readText(`${JSON.stringify(d)}\n{"not":"a game"}\n`);
    expect(drafts.map((x) => x.kind)).toEqual(['unreadable', 'unreadable']);
    expect(drafts[0].kind === 'unreadable' && drafts[0].message).toMatch(/more micro-moves than "moves" holds \(turn 3\)/);
  });

  it('write back the document they were read from (history, moves, clocks, result)', async () => {
    const [r] = records(await collect([SERVER_GAME]));
    const again = makeBeturanga(r);
    const original = doc();
    // The joined side and castling are the server's slip; the writer puts the space back.
    expect(again.history).toEqual((original.history as string[]).map((h) => h.replace(' wKQkq ', ' w KQkq ')));
    expect((again.moves as { move: string }[]).map((m) => m.move)).toEqual((original.moves as { move: string }[]).map((m) => m.move));
    expect(again.result).toEqual(original.result);
    expect((again.players as { timeleft: number }[]).map((p) => p.timeleft)).toEqual([164370, 171930]);
    const [back] = await readText(`${JSON.stringify(again)}\n`);
    if (back.kind !== 'record') throw new Error(JSON.stringify(back));
    expect({ ...back.record, location: null, notes: [] }).toEqual({
      ...r,
      id: r.id,
      location: null,
      notes: [],
      players: { white: { ...r.players.white }, black: { ...r.players.black } },
      turns: r.turns.map((t) => ({ ...t, location: back.record.turns[r.turns.indexOf(t)].location })),
    });
  });

  it('have a written schema', () => {
    const schema = beturangaJsonSchema();
    expect(schema.title).toBe('beturanga server game document');
    expect(JSON.stringify(schema)).toContain('timeleft');
  });

  it('the generated sample conforms under beturanga', async () => {
    const items = await collect([fixture('..', '..', '..', 'corpora', 'samples', 'beturanga', 'games.server.ndjson.gz')]);
    expect(unreadables(items)).toEqual([]);
    expect(records(items).length).toBe(60);
  });
});
