import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../test-support/closed-port.js';
import { runCli } from '../cli/test-support/run-cli.js';
import { type FakeSite, dicechessGames, fortemateGames, startFakeSite } from './test-support/fake-sites.js';
import { TempDirs, allFiles, readManifestFile, sha256File } from './test-support/folders.js';

const temps = new TempDirs();
const fakes: FakeSite[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
});
afterAll(() => temps.removeAll());

const FM_PLAYER = '6f1c0b4e-2a7d-4c1e-9b3a-1d2e3f405162';
const TOKEN = 'Bearer s3cr3t-token-VALUE-0123456789';

async function fake(site: 'fortemate' | 'dicechess-com', opts: Parameters<typeof startFakeSite>[1]): Promise<FakeSite> {
  const f = await startFakeSite(site, opts);
  fakes.push(f);
  return f;
}

/** Replays a folder as a user would (no flags but the dialect) and returns the result lines. */
async function replayFolder(dir: string, dialect: string): Promise<{ code: number; lines: Array<{ id: string; status: string }> }> {
  const out = path.join(temps.make('fetch-run-'), 'run');
  const r = await runCli('replay', dir, '--dialect', dialect, '--out', out, '--jobs', '1', '--quiet');
  const lines = readFileSync(path.join(out, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  return { code: r.code, lines };
}

const listingRequests = (f: FakeSite) => f.requests.filter((r) => /\/players\/|player\/history/.test(r.url));
const gameRequests = (f: FakeSite) => f.requests.filter((r) => /^\/games\/.*\/history$|^\/api\/game-move-history$/.test(r.url.split('?')[0]));

describe('fetch fortemate', () => {
  it('pages through a player, stores history documents, records every outcome, and replay reads the folder as it is', async () => {
    const games = fortemateGames(45);
    const f = await fake('fortemate', { games, player: FM_PLAYER, pageSize: 20, missing: [games[7].id], listedTwice: [games[19].id] });
    const out = path.join(temps.make(), 'fm');
    const r = await runCli('fetch', 'fortemate', '--player', FM_PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${out}\n`);
    // Three pages, keyset by the oldest row's exact finishedAt string.
    const lists = listingRequests(f).map((q) => new URL(q.url, f.url).searchParams.get('before'));
    expect(lists).toEqual([null, games[19].time, games[39].time]);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 45, fetched: 44, unavailable: 1, failed: 0 });
    expect(m.games.map((g) => g.id).sort()).toEqual(games.map((g) => g.id).sort()); // the game listed twice is there once
    expect(gameRequests(f)).toHaveLength(45);
    const gone = m.games.find((g) => g.id === games[7].id)!;
    expect(gone).toMatchObject({ status: 'unavailable', httpStatus: 404, reason: 'history unavailable', file: null });
    for (const g of m.games.filter((x) => x.status === 'fetched')) {
      const file = path.join(out, g.file!);
      expect(sha256File(file)).toBe(g.sha256);
      expect(readFileSync(file, 'utf8')).toBe(games.find((x) => x.id === g.id)!.body);
      expect(Date.parse(g.fetchedAt)).not.toBeNaN();
    }
    expect(m.cursor).toEqual({ top: games[0].time, bottom: games[44].time, exhausted: true });
    expect(m.runs.at(-1)).toMatchObject({ completed: true, fetched: 44, unavailable: 1, failed: 0, pages: 3 });
    expect(allFiles(out).filter((n) => !n.startsWith('games/'))).toEqual(['manifest.json']);

    const replay = await replayFolder(out, 'reference');
    expect(replay.code).toBe(0);
    const ids = replay.lines.map((l) => l.id).sort();
    expect(ids).toEqual(m.games.filter((g) => g.status === 'fetched').map((g) => g.id).sort());
    expect(replay.lines.every((l) => l.status === 'conforming')).toBe(true);
  });

  it('a second run lists only the newer pages and fetches only the new games', async () => {
    const games = fortemateGames(30);
    const f = await fake('fortemate', { games, player: FM_PLAYER, pageSize: 10 });
    const out = path.join(temps.make(), 'fm');
    const args = ['fetch', 'fortemate', '--player', FM_PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet'];
    expect((await runCli(...args)).code).toBe(0);
    expect(listingRequests(f)).toHaveLength(3);
    const newer = fortemateGames(4, 'fake-fm', -4);
    f.addGames(newer);
    f.requests.length = 0;
    const again = await runCli(...args);
    expect(again.code).toBe(0);
    expect(listingRequests(f)).toHaveLength(1); // the first page already reaches the last run's newest game
    expect(gameRequests(f).map((q) => q.url).sort()).toEqual(newer.map((g) => `/games/${g.id}/history`).sort());
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 34, fetched: 34, unavailable: 0, failed: 0 });
    expect(m.cursor).toMatchObject({ top: newer[0].time, exhausted: true });
    // A third run with nothing new: one page, no game requests.
    f.requests.length = 0;
    expect((await runCli(...args)).code).toBe(0);
    expect(listingRequests(f)).toHaveLength(1);
    expect(gameRequests(f)).toHaveLength(0);
  });

  it('--limit stops early and a later run goes on where it stopped; --since keeps to newer games', async () => {
    const games = fortemateGames(23);
    const f = await fake('fortemate', { games, player: FM_PLAYER, pageSize: 5 });
    const out = path.join(temps.make(), 'fm');
    const args = ['fetch', 'fortemate', '--player', FM_PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet'];
    expect((await runCli(...args, '--limit', '7')).code).toBe(0);
    let m = readManifestFile(out);
    expect(m.counts.fetched).toBe(7);
    expect(m.cursor).toMatchObject({ bottom: games[4].time, exhausted: false });
    expect((await runCli(...args)).code).toBe(0);
    m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 23, fetched: 23, unavailable: 0, failed: 0 });
    expect(gameRequests(f)).toHaveLength(23); // none twice

    const out2 = path.join(temps.make(), 'fm');
    expect((await runCli('fetch', 'fortemate', '--player', FM_PLAYER, '--out', out2, '--base-url', f.url, '--rate', '0', '--quiet', '--since', games[11].time)).code).toBe(0);
    expect(readManifestFile(out2).games.map((g) => g.id).sort()).toEqual(games.slice(0, 12).map((g) => g.id).sort());
  });

  it('refuses an --out folder it did not make, and leaves it untouched', async () => {
    const nowhere = await closedPortUrl();
    const dir = temps.make();
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    const r = await runCli('fetch', 'fortemate', '--player', FM_PLAYER, '--out', dir, '--base-url', nowhere, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/holds files but no fetch manifest\.json/);
    expect(allFiles(dir)).toEqual(['notes.txt']);
    const other = temps.make();
    writeFileSync(path.join(other, 'manifest.json'), '{"version": 3}');
    const r2 = await runCli('fetch', 'fortemate', '--player', FM_PLAYER, '--out', other, '--base-url', nowhere, '--quiet');
    expect(r2.code).toBe(2);
    expect(r2.err).toMatch(/not a fetch manifest/);
    expect(readFileSync(path.join(other, 'manifest.json'), 'utf8')).toBe('{"version": 3}');
  });

  it('usage errors and an unreachable API exit 2 with one line', async () => {
    const nowhere = await closedPortUrl();
    const out = path.join(temps.make(), 'fm');
    for (const args of [[], ['--player', 'p', '--ids', 'x'], ['--player', 'p', '--rate', '-1'], ['--player', 'p', '--since', 'yesterday'], ['--player', 'p', '--concurrency', '0']]) {
      const r = await runCli('fetch', 'fortemate', '--out', out, ...args);
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
    const down = await runCli('fetch', 'fortemate', '--player', 'p', '--out', out, '--base-url', nowhere, '--quiet', '--timeout', '2');
    expect(down.code).toBe(2);
    expect(down.err).toMatch(/cannot be reached/);
  }, 120_000);
});

describe('fetch dicechess-com', () => {
  const PLAYER = '482';

  it('needs the token, sends it as Authorization, never writes it, and replay picks up the history-list metadata', async () => {
    const games = dicechessGames(26);
    const f = await fake('dicechess-com', { games, player: PLAYER, token: TOKEN, pageSize: 10, noStateMap: [games[3].id], missing: [games[4].id] });
    const arrived = dicechessGames(1, 'fake-dc', -1);
    f.onListed = (n) => {
      if (n === 0) f.addGames(arrived);
    };
    const out = path.join(temps.make(), 'dc');
    const args = ['fetch', 'dicechess-com', '--player', PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--page-size', '10'];
    delete process.env.DICECHESS_TOKEN;
    const none = await runCli(...args);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/set DICECHESS_TOKEN/);
    process.env.FETCH_TEST_TOKEN = TOKEN;
    process.env.FETCH_TEST_COOKIE = 'session=c00kie-secret-98765';
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      r = await runCli(...args, '--token-env', 'FETCH_TEST_TOKEN', '--cookie-env', 'FETCH_TEST_COOKIE');
    } finally {
      delete process.env.FETCH_TEST_TOKEN;
      delete process.env.FETCH_TEST_COOKIE;
    }
    expect(r.code).toBe(0);
    // A game that arrived on top after the first page shifted the offsets: the second page repeats a row.
    expect(r.err).toMatch(/, 1 listed twice;/);
    expect(f.requests.every((q) => q.authorization === TOKEN && q.cookie === 'session=c00kie-secret-98765')).toBe(true);
    // Pages of 10: 10, 10, 6 (short: the end).
    expect(listingRequests(f).map((q) => JSON.parse(q.body).first)).toEqual([0, 10, 20]);
    expect(JSON.parse(listingRequests(f)[0].body)).toEqual({ filters: { PLAYER_ID: PLAYER, START_DATE: '1' }, allowed_times: [], first: 0, isAsc: false, pageSize: 10, sortColumn: 'DATE', startBets: [] });
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 26, fetched: 24, unavailable: 2, failed: 0 });
    expect(m.games.find((g) => g.id === games[3].id)).toMatchObject({ status: 'unavailable', httpStatus: 200 });
    expect(m.games.find((g) => g.id === games[4].id)).toMatchObject({ status: 'unavailable', httpStatus: 404, reason: 'game not found' });
    expect(m.historyList).toBe('history-list.json');
    const secret = TOKEN.split(' ')[1];
    for (const file of allFiles(out)) {
      const text = readFileSync(path.join(out, file), 'utf8');
      expect(text).not.toContain(secret);
      expect(text).not.toContain('c00kie-secret');
    }
    expect(r.err + r.out).not.toContain(secret);

    expect(m.games.some((g) => g.id === arrived[0].id)).toBe(false); // on top, after the listing passed it: next run
    // replay: every fetched game once, with result, ratings, time control and mode from the rows.
    const replay = await replayFolder(out, 'dicechess-com');
    expect(replay.lines.map((l) => l.id).sort()).toEqual(m.games.filter((g) => g.status === 'fetched').map((g) => g.id).sort());
    const converted = await runCli('convert', out, '--to', 'ndjson');
    const read = converted.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(read).toHaveLength(24);
    for (const rec of read) {
      const want = games.find((g) => g.id === rec.id)!.record;
      expect(rec.result).toBe(want.result);
      expect(rec.players.white.rating).toBe(want.players.white.rating);
      expect(rec.players.black.rating).toBe(want.players.black.rating);
      expect(rec.timeControl?.initialMs ?? null).toBe(want.timeControl?.initialMs ?? null);
      expect(rec.mode).toBe(want.mode);
      expect(rec.notes).not.toContain('metadata:missing');
    }
  });

  it('a folder of fetch folders reads as one corpus: no manifest or history list taken for games, metadata kept', async () => {
    const parent = temps.make();
    const fm = await fake('fortemate', { games: fortemateGames(4), player: FM_PLAYER });
    const dcGames = dicechessGames(3);
    const dc = await fake('dicechess-com', { games: dcGames, player: PLAYER, token: TOKEN });
    expect((await runCli('fetch', 'fortemate', '--player', FM_PLAYER, '--out', path.join(parent, 'fm'), '--base-url', fm.url, '--rate', '0', '--quiet')).code).toBe(0);
    process.env.DICECHESS_TOKEN = TOKEN;
    try {
      expect((await runCli('fetch', 'dicechess-com', '--player', PLAYER, '--out', path.join(parent, 'dc'), '--base-url', dc.url, '--rate', '0', '--quiet')).code).toBe(0);
    } finally {
      delete process.env.DICECHESS_TOKEN;
    }
    const r = await runCli('convert', parent, '--to', 'ndjson');
    expect(r.err).toBe('read 7, unreadable 0\n');
    const recs = r.out.trim().split('\n').map((l) => JSON.parse(l));
    for (const g of dcGames) expect(recs.find((x) => x.id === g.id).players.white.rating).toBe(g.record.players.white.rating);
  });

  it('a 401 stops the run before anything else is fetched, exit 2, token not echoed', async () => {
    const games = dicechessGames(5);
    const f = await fake('dicechess-com', { games, player: PLAYER, token: TOKEN });
    const out = path.join(temps.make(), 'dc');
    process.env.DICECHESS_TOKEN = 'Bearer wrong-token-abcdefgh';
    try {
      const r = await runCli('fetch', 'dicechess-com', '--player', PLAYER, '--out', out, '--base-url', f.url, '--concurrency', '4', '--rate', '0');
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/HTTP 401.*credentials were refused.*DICECHESS_TOKEN/);
      expect(r.err).not.toContain('wrong-token');
      expect(f.requests).toHaveLength(1);
      const ids = path.join(temps.make(), 'ids.txt');
      writeFileSync(ids, games.map((g) => g.id).join('\n'));
      const out2 = path.join(temps.make(), 'dc');
      const r2 = await runCli('fetch', 'dicechess-com', '--ids', ids, '--out', out2, '--base-url', f.url, '--concurrency', '4', '--rate', '0', '--quiet');
      expect(r2.code).toBe(2);
      expect(f.requests).toHaveLength(2);
      expect(readManifestFile(out2).counts.listed).toBe(0);
    } finally {
      delete process.env.DICECHESS_TOKEN;
    }
  });

  it('--ids takes a history-list JSON (rows kept as metadata) or plain lines; the next listing run only lists new pages', async () => {
    const games = dicechessGames(12);
    const f = await fake('dicechess-com', { games, player: PLAYER, token: TOKEN, pageSize: 5 });
    process.env.DICECHESS_TOKEN = TOKEN;
    try {
      const dir = temps.make();
      const list = path.join(dir, 'list.json');
      writeFileSync(list, JSON.stringify({ total: 3, content: games.slice(0, 3).map((g) => g.row) }));
      const out = path.join(dir, 'dc');
      expect((await runCli('fetch', 'dicechess-com', '--ids', list, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet')).code).toBe(0);
      const byId = new Map(readManifestFile(out).games.map((g) => [g.id, g.listing]));
      expect(games.slice(0, 3).map((g) => byId.get(g.id))).toEqual(games.slice(0, 3).map((g) => g.row));
      const lines = path.join(dir, 'ids.txt');
      writeFileSync(lines, `# two more\n${games[3].id}\n\n${games[4].id}\n${games[3].id}\n`);
      expect((await runCli('fetch', 'dicechess-com', '--ids', lines, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet')).code).toBe(0);
      expect(readManifestFile(out).counts.fetched).toBe(5);

      const out2 = path.join(dir, 'dc2');
      const args = ['fetch', 'dicechess-com', '--player', PLAYER, '--out', out2, '--base-url', f.url, '--rate', '0', '--quiet', '--page-size', '5'];
      expect((await runCli(...args)).code).toBe(0);
      f.addGames(dicechessGames(3, 'fake-dc', -3));
      f.requests.length = 0;
      expect((await runCli(...args)).code).toBe(0);
      expect(listingRequests(f).map((q) => JSON.parse(q.body).first)).toEqual([0]);
      expect(gameRequests(f)).toHaveLength(3);
      const m = readManifestFile(out2);
      expect(m.counts).toEqual({ listed: 15, fetched: 15, unavailable: 0, failed: 0 });
      expect(m.cursor).toMatchObject({ offset: 15, exhausted: true });
      const rows = JSON.parse(readFileSync(path.join(out2, 'history-list.json'), 'utf8'));
      expect(rows).toHaveLength(15);
    } finally {
      delete process.env.DICECHESS_TOKEN;
    }
  });
});
