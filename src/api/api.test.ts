import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeTurn, legalFirstMoves, legalTurns, listDialects, loadDialect, positionAfter, readRecords, replayRecord, runReplay } from '../index.js';
import { makeRecordText } from '../records/index.js';
import { packageRoot } from '../dialects/index.js';
import { runCli } from '../cli/test-support/run-cli.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const root = packageRoot();

const must = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

describe('the library API', () => {
  it('loads dialects by name, alias, file and object, with overrides; problems are values with codes and paths', () => {
    const byAlias = must(loadDialect('dicechess.com'));
    expect(byAlias.name).toBe('dicechess-com');
    expect(must(loadDialect(join(root, 'dialects', 'reference.json'))).name).toBe('reference');
    const house = must(loadDialect({ name: 'house', extends: 'dicechess.com', enPassant: { window: { value: 'first-micro-move', source: 'assumed' } } }, { set: ['maximum=micro-move'] }));
    expect([house.rules.enPassant.window, house.rules.maximum, house.rules.stakes.modes]).toEqual(['first-micro-move', 'micro-move', byAlias.rules.stakes.modes]);
    expect(house.sources.maximum.from).toBe('override');
    const unknown = loadDialect('nowhere');
    expect(unknown.ok ? null : unknown.error[0].code).toBe('dialect.unknown');
    const bad = loadDialect({ name: 'bad', extends: 'reference', maximum: { value: 'sometimes', source: 'assumed' } });
    expect(bad.ok ? null : bad.error.map((p) => [p.code, p.path])).toEqual([['dialect.invalid', 'maximum.value']]);
    const badSet = loadDialect('reference', { set: ['maximum=sometimes'] });
    expect(badSet.ok ? null : badSet.error[0].code).toBe('dialect.override');
    expect(listDialects().map((d) => d.name)).toContain('reference');
  });

  it('answers as the CLI does: moves, turns, check (the commands call these functions)', async () => {
    const d = must(loadDialect('reference'));
    const cliMoves = await runCli('moves', '--dialect', 'reference', '--dfen', `${START} PNB`, '--json');
    expect(must(legalFirstMoves(d, `${START} PNB`))).toEqual(JSON.parse(cliMoves.out));
    const cliTurns = await runCli('turns', '--dialect', 'reference', '--dfen', `${START} PNB`, '--json');
    expect(must(legalTurns(d, `${START} PNB`))).toEqual(JSON.parse(cliTurns.out));
    const cliCheck = await runCli('check', '--dialect', 'reference', '--dfen', `${START} PB`, '--turn', 'a2a3', '--json');
    expect(must(judgeTurn(d, `${START} PB`, 'a2a3'))).toEqual(JSON.parse(cliCheck.out));
    expect(must(judgeTurn(d, `${START} PNB`, ['e2e4', 'f1c4', 'b1c3']))).toEqual({ legal: true, kingCaptured: false, diceSpent: 3 });
    // Errors are values: a DFEN without dice, too many dice, bad move text.
    expect(legalFirstMoves(d, START)).toMatchObject({ ok: false, error: { code: 'fen.dice' } });
    expect(legalFirstMoves(must(loadDialect('brainking')), `${START} PNB`)).toMatchObject({ ok: false, error: { code: 'fen.dice-count' } });
    expect(judgeTurn(d, `${START} PNB`, 'e2e9')).toMatchObject({ ok: false, error: { code: 'uci.bad-square' } });
    expect(must(positionAfter(d, `${START} PNB`, ['e2e4', 'f1c4']))).toBe('rnbqkbnr/pppppppp/8/8/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq e3 1 1 N');
    expect(positionAfter(d, `${START} PNB`, ['e2e5'])).toMatchObject({ ok: false, error: { code: 'turn.step' } });
  });

  it('reads records from files and from bytes handed over, and replays one record', async () => {
    const d = must(loadDialect('dicechess-com'));
    const items = [];
    for await (const item of readRecords([join(root, 'corpora/samples/dicechess-com/games.csv.gz')], { limit: 3 })) items.push(item);
    expect(items.map((i) => i.kind)).toEqual(['record', 'record', 'record']);
    const first = items[0];
    if (first.kind !== 'record') throw new Error('no record');
    const line = replayRecord(first.record, d);
    expect([line.status, line.dialect, line.id]).toEqual(['conforming', 'dicechess-com', first.record.id]);
    // The same record as text in memory, and as a stream of chunks: the same record back.
    const text = makeRecordText('ndjson', first.record);
    const chunks = async function* () {
      for (let i = 0; i < text.length; i += 100) yield text.slice(i, i + 100);
    };
    const again = [];
    for await (const item of readRecords([{ name: 'mem.ndjson', data: text }, { name: 'stream.ndjson', data: chunks() }, { name: 'bad.ndjson', data: '{"nope": 1}\n' }])) again.push(item);
    expect(again.map((i) => i.kind)).toEqual(['record', 'record', 'unreadable']);
    for (const i of again.slice(0, 2)) if (i.kind === 'record') expect(replayRecord(i.record, d).status).toBe('conforming');
    const bad = again[2];
    expect(bad.kind === 'unreadable' ? bad.source : null).toBe('bad.ndjson');
  });

  it('runs a replay into a run folder; a bad dialect is an error value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dice-api-run-'));
    try {
      const r = must(await runReplay({ sources: [join(root, 'corpora/samples/dicechess-com/games.csv.gz')], dialects: ['dicechess.com', 'wikipedia'], out: join(dir, 'run'), jobs: 1, limit: 20 }));
      expect(r.summary.totals.lines).toBe(40);
      expect(r.summary.byDialect['dicechess-com'].conforming).toBe(20);
      const md = await readFile(join(dir, 'run', 'report.md'), 'utf8');
      expect(md).toMatch(/\[Open in the explorer\]\(<explorer\.html#dfen=[^>]*&focus=wikipedia-two-dice>\)/);
      const html = await readFile(join(dir, 'run', 'explorer.html'), 'utf8');
      expect(html).toContain('"name":"wikipedia-two-dice"');
      const bad = await runReplay({ sources: ['x'], dialects: ['nowhere'], out: join(dir, 'bad') });
      expect(bad).toMatchObject({ ok: false, error: { code: 'dialect.unknown' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
