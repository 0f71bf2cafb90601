import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { runCli } from '../test-support/run-cli.js';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixture } from '../../records/test-support/collect.js';
import { randomGame } from '../../records/test-support/random-game.js';
import { makeRecordText } from '../../records/write.js';
import { tempDir } from '../../test-support/temp-dir.js';

const run = runCli;

afterEach(() => {
  process.exitCode = 0;
  vi.restoreAllMocks();
});

const dir = tempDir('convert-cli-');

describe('dice-dialects convert', () => {
  // /dev/full takes no byte (ENOSPC): a full disk, on any Linux, without filling one.
  it.runIf(process.platform === 'linux')('an output that cannot be written is one line naming it, exit 2: not a hang, not a pass', async () => {
    const r = await run('convert', fixture('ingest-wire'), '--to', 'csv', '--out', '/dev/full');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n').at(-1)).toBe('dice-dialects: --out /dev/full: cannot write: no space left');
  });

  it('--out /dev/stdout is the process\'s stdout, whatever it is (a socket cannot be opened by name)', async () => {
    const r = await run('convert', fixture('ingest-wire'), '--to', 'csv', '--out', '/dev/stdout');
    expect(r.code).toBe(1);
    expect(r.out.split('\n')[0]).toMatch(/^game_id,turn_number,fen,dice/);
  });

  it('--out NAME.gz is written gzip-compressed, and reads back to the same records', async () => {
    const gz = join(dir, 'turns.csv.gz');
    expect((await run('convert', fixture('ingest-wire'), '--to', 'csv', '--out', gz)).code).toBe(1);
    expect(gunzipSync(readFileSync(gz)).toString('utf8').split('\n')[0]).toMatch(/^game_id,turn_number,fen,dice/);
    const plain = await run('convert', fixture('ingest-wire'), '--to', 'csv');
    expect(gunzipSync(readFileSync(gz)).toString('utf8')).toBe(plain.out);
    writeFileSync(join(dir, 'turns-plain.csv'), plain.out);
    const back = await run('convert', gz);
    // The same records, read from either file (each names its own file as where it was read).
    const games = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as { id: string; turns: unknown[] }).map((g) => [g.id, JSON.stringify(g.turns).replace(/turns(-plain)?\.csv(\.gz)?/g, 'F')]);
    expect(games(back.out).length).toBeGreaterThan(0);
    expect(games(back.out)).toEqual(games((await run('convert', join(dir, 'turns-plain.csv'))).out));
  });

  it('writes canonical NDJSON and accounts for every record on stderr', async () => {
    const r = await run('convert', fixture('ingest-wire'), fixture('csv', 'turns.csv'));
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(6);
    expect(JSON.parse(lines[0]).id).toBe('00000000-0000-0000-0000-0000000000c1');
    const err = r.err.trim().split('\n');
    expect(err.at(-1)).toBe('read 6, unreadable 5');
    expect(err.slice(0, -1)).toHaveLength(5);
    expect(err[0]).toMatch(/wire\.ndjson:3#turn 1: record\.bad-dice: .*\(record 00000000-0000-0000-0000-0000000000b3\)$/);
  });

  it('converts to CSV and ingest-wire, writes --out, and puts unreadable records in --errors', async () => {
    const out = join(dir, 'games.csv');
    const errors = join(dir, 'errors.ndjson');
    const r = await run('convert', fixture('opening-book', 'book.tsv'), '--to', 'csv', '--out', out, '--errors', errors);
    expect(r.code).toBe(1);
    // CSV sorts a turn's dice: the book lines' roll order is not carried.
    expect(r.err).toBe('dice-dialects: warning: csv does not carry all the records held: dice in roll order (1 record); ndjson carries everything\nread 4, unreadable 2\n');
    expect(readFileSync(out, 'utf8').split('\n')[0]).toMatch(/^game_id,turn_number,fen,dice/);
    const bad = readFileSync(errors, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(bad.map((b) => b.code)).toEqual(['record.bad-fen', 'record.bad-move']);
    const wire = await run('convert', fixture('history', 'fortemate-game.json'), '--to', 'ingest-wire');
    expect(wire.code).toBe(0);
    expect(wire.err).toBe('dice-dialects: warning: ingest-wire does not carry all the records held: dice in roll order (1 record), fairness seeds (1 record), end time (1 record), rated (1 record); ndjson carries everything\nread 1, unreadable 0\n');
    expect(JSON.parse(wire.out).initial_fen).toMatch(/^rnbqkbnr/);
  });

  it('a game with no turn has no CSV row and no book line: one line says so and the exit is 1; NDJSON holds it', async () => {
    const input = join(dir, 'no-turn.ndjson');
    const game = randomGame(1, { turns: 3 });
    writeFileSync(input, makeRecordText('ndjson', { ...game, id: 'with-turns' }) + makeRecordText('ndjson', { ...game, id: 'no-turn', turns: [], events: [] }));
    for (const [to, reason] of [
      ['csv', 'CSV holds a game as its turns, one row each, and this game has no turn'],
      ['opening-book', "a book line is a game's first turn, and this game has no turn"],
    ] as const) {
      const r = await run('convert', input, '--to', to);
      expect(r.code, to).toBe(1);
      const err = r.err.trimEnd().split('\n');
      expect([err[0], err.at(-1)]).toEqual([`${input}:2: record.not-written: not written as ${to}: ${reason} (record no-turn)`, 'read 2, unreadable 0, not written 1']);
      // What the written game loses is said apart; the game not written loses nothing there.
      expect(err.slice(1, -1)).toEqual([expect.stringMatching(new RegExp(`^dice-dialects: warning: ${to} does not carry all the records held: .*\\(1 record\\)`))]);
      expect(r.out).not.toContain('no-turn');
    }
    const ndjson = await run('convert', input, '--to', 'ndjson');
    expect(ndjson.code).toBe(0);
    expect(ndjson.out.trim().split('\n')).toHaveLength(2);
  });

  it('says what the target format does not carry, kind by kind, counted in records; ndjson carries everything', async () => {
    const planted = 'corpora/samples/planted/dicechess-com.state-maps.ndjson.gz';
    const csv = await run('convert', planted, '--to', 'csv', '--out', join(dir, 'planted.csv'));
    expect(csv.code).toBe(0);
    const warning = csv.err.split('\n').find((l) => l.startsWith('dice-dialects: warning: csv does not carry'));
    for (const kind of ['clocks (200 records)', 'dice flags (200 records)', 'boards after the turns (200 records)', 'stakes (200 records)']) expect(warning).toContain(kind);
    const ndjson = await run('convert', planted, '--to', 'ndjson', '--out', join(dir, 'planted.ndjson'));
    expect(ndjson.err).toBe('read 200, unreadable 0\n');
    // A value that does not come back as it was is said too: a state map has no resignation.
    const resigned = JSON.parse(readFileSync(join(dir, 'planted.ndjson'), 'utf8').split('\n')[0]);
    writeFileSync(join(dir, 'resigned.ndjson'), `${JSON.stringify({ ...resigned, result: 'white', termination: 'resign' })}\n`);
    const sm = await run('convert', join(dir, 'resigned.ndjson'), '--to', 'dicechess-com', '--out', join(dir, 'resigned.sm'));
    expect(sm.err).toMatch(/does not carry all the records held: .*terminations \(changed or lost\) \(1 record\)/);
  });

  it('reads stdin with -, with --format', async () => {
    const text = readFileSync(fixture('csv', 'turns.csv'), 'utf8');
    vi.spyOn(process, 'stdin', 'get').mockReturnValue(Readable.from([Buffer.from(text)]) as never);
    const r = await run('convert', '-', '--format', 'csv', '--limit', '1');
    expect(r.err).toBe('read 1, unreadable 0\n');
    expect(JSON.parse(r.out).id).toBe('00000000-0000-0000-0000-000000000001');
  });

  it('uses the dicechess.com history list for metadata', async () => {
    const r = await run('convert', fixture('dicechess-com'), '--glob', '*.json', '--history-list', fixture('dicechess-com-history-list.json'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ result: 'draw', players: { white: { id: '482' } } });
  });

  it('says usage problems in one line (exit 2)', async () => {
    const r = await run('convert', fixture('csv'), '--history-list', join(dir, 'nope.json'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/history list .*nope\.json/);
    const bad = await run('convert', fixture('csv'), '--to', 'pgn');
    expect(bad.code).toBe(2);
    const unknown = await run('convert', fixture('csv'), '--bogus');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^dice-dialects: Unknown argument: bogus\n$/);
  });
});

describe('dice-dialects schema record', () => {
  it('prints the JSON Schema of a game record', async () => {
    const r = await run('schema', 'record');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.out);
    expect(schema.title).toBe('GameRecord');
    expect(schema.properties.turns.type).toBe('array');
    expect(schema.required).toEqual(expect.arrayContaining(['id', 'startFen', 'turns', 'result']));
  });
});
