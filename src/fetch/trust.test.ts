import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/paths.js';
import { type FakeGame, type FakeSite, type FakeSiteOptions, dicechessGames, fortemateGames, startFakeSite } from './test-support/fake-sites.js';
import { TempDirs, readManifestFile } from './test-support/folders.js';

/**
 * Servers that misbehave, against the real CLI: what a server says about its pages and
 * games is checked, never trusted. Loopback fakes on port 0; the CLI is a child process.
 */
const temps = new TempDirs();
const fakes: FakeSite[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
});
afterAll(() => temps.removeAll());

const bin = path.join(packageRoot(), 'bin', 'dice-dialects.js');
const PLAYER = 'p-1';
const TOKEN = 'tok-abcdefgh';

export function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DICECHESS_TOKEN: TOKEN, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

async function fake(site: 'fortemate' | 'dicechess-com', games: ReturnType<typeof fortemateGames>, extra: Partial<FakeSiteOptions> = {}): Promise<FakeSite> {
  const f = await startFakeSite(site, { games, player: PLAYER, pageSize: 10, token: site === 'dicechess-com' ? TOKEN : undefined, ...extra });
  fakes.push(f);
  return f;
}

const fetchArgs = (site: string, f: FakeSite, out: string, ...more: string[]) => ['fetch', site, '--player', PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--page-size', '10', '--quiet', ...more];

describe('a listing page that repeats an earlier page (22.1)', () => {
  it('dicechess.com answering first=10 once with the rows of first=0: asked again, all 60 games fetched', async () => {
    const games = dicechessGames(60);
    let served = false;
    const f = await fake('dicechess-com', games, {
      pageHook: (p) => {
        if (p.first !== 10 || served) return p;
        served = true;
        return { rows: games.slice(0, 10), more: true };
      },
    });
    const out = path.join(temps.make(), 'dc');
    const r = await cli(fetchArgs('dicechess-com', f, out));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 60, fetched: 60, unavailable: 0, failed: 0 });
    expect(m.listing).toEqual({ complete: true, reason: null });
  }, 120_000);

  it('a server that keeps repeating it: the listing fails with fetch.listing (exit 2), the cursor stays before the page, the manifest says the listing is incomplete', async () => {
    const games = dicechessGames(60);
    const f = await fake('dicechess-com', games, { pageHook: (p) => (p.first === 10 ? { rows: games.slice(0, 10), more: true } : p) });
    const out = path.join(temps.make(), 'dc');
    const r = await cli(fetchArgs('dicechess-com', f, out));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dice-dialects: POST .*first=10 brought only games already listed, 3 times: the listing does not move/m);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 10, fetched: 10, unavailable: 0, failed: 0 });
    expect(m.cursor).toMatchObject({ offset: 10, exhausted: false });
    expect(m.listing).toMatchObject({ complete: false, reason: expect.stringMatching(/does not move/) });
    // Fixed server: the next run lists on from offset 10 and gets every game.
    f.faults.clear();
    const f2 = await fake('dicechess-com', games);
    expect((await cli(fetchArgs('dicechess-com', f2, out))).code).toBe(0);
    expect(readManifestFile(out).counts).toEqual({ listed: 60, fetched: 60, unavailable: 0, failed: 0 });
    expect(readManifestFile(out).listing).toEqual({ complete: true, reason: null });
  }, 120_000);
});

describe('a listing that pages for ever (22.4)', () => {
  it('Fortemate with hasMore: true and the same page for ever: one line, fetch.listing, exit 2, after a few requests', async () => {
    const games = fortemateGames(10);
    const f = await fake('fortemate', games, { pageHook: (p) => ({ rows: games.slice(0, 10), more: true }) });
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/listing does not move/);
    expect(f.requests.filter((q) => q.url.includes('/players/')).length).toBeLessThanOrEqual(5);
    expect(readManifestFile(out).counts.listed).toBe(10);
  }, 120_000);

  it('dicechess.com always sending the same full page: the offset does not run away', async () => {
    const games = dicechessGames(50);
    const f = await fake('dicechess-com', games, { pageHook: () => ({ rows: games.slice(0, 10), more: true }) });
    const out = path.join(temps.make(), 'dc');
    const r = await cli(fetchArgs('dicechess-com', f, out));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/listing does not move/);
    expect(readManifestFile(out).cursor).toMatchObject({ offset: 10 });
    expect(f.requests.filter((q) => q.url.includes('/history')).length).toBeLessThanOrEqual(5);
  }, 120_000);

  it('a server that says "more" for ever while each page brings one new game: stopped by the page bound', async () => {
    const games = fortemateGames(100);
    // Each page: nine games listed already and one new, always hasMore.
    const f = await fake('fortemate', games, {
      pageHook: (p) => {
        const k = p.n;
        return { rows: [...games.slice(0, 9), games[Math.min(9 + k, 99)]], more: true };
      },
    });
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the listing asked for \d+ pages for \d+ games .*sends few new games; stopped/);
    expect(f.requests.filter((q) => q.url.includes('/players/')).length).toBeLessThanOrEqual(40);
    expect(readManifestFile(out).listing?.complete).toBe(false);
  }, 120_000);
});

/** The same game under another id: the listing row, the record and (when it names one) the answer. */
function renamed(g: FakeGame, id: string): FakeGame {
  const body = JSON.parse(g.body) as Record<string, unknown>;
  if ('gameId' in body) body.gameId = id;
  return { ...g, id, row: { ...g.row, gameId: id }, body: JSON.stringify(body), record: { ...g.record, id } };
}

/** The records a folder reads as (canonical NDJSON through the real CLI). */
async function recordsOf(dir: string): Promise<Array<Record<string, unknown>>> {
  const r = await cli(['convert', dir]);
  expect(r.code).toBe(0);
  return r.out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('ids the server chose (22.2, 22.3)', () => {
  it('ids past the file-name limit (231 ASCII characters, 60 × é) are stored under bounded names, the full id in the manifest and the file; the games after them are fetched too', async () => {
    const base = fortemateGames(12);
    const long = 'x'.repeat(231);
    const accents = 'é'.repeat(60);
    const games = base.map((g, i) => (i === 2 ? renamed(g, long) : i === 5 ? renamed(g, accents) : g));
    const f = await fake('fortemate', games);
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 12, fetched: 12, unavailable: 0, failed: 0 });
    for (const name of readdirSync(path.join(out, 'games'))) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(200);
    const entry = m.games.find((g) => g.id === long)!;
    expect(JSON.parse(readFileSync(path.join(out, entry.file!), 'utf8')).gameId).toBe(long);
    expect((await recordsOf(out)).map((x) => x.id).sort()).toEqual(games.map((g) => g.id).sort());
    // A rerun finds every game settled.
    const again = await cli(fetchArgs('fortemate', f, out));
    expect(again.code).toBe(0);
  }, 120_000);

  it('a game that cannot be stored is recorded as failed and the run goes on', async () => {
    const games = fortemateGames(8);
    const f = await fake('fortemate', games);
    const out = path.join(temps.make(), 'fm');
    mkdirSync(path.join(out, 'games', `${games[3].id}.json`), { recursive: true }); // a folder where the file goes
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(2); // --out holds files but no manifest: refused, nothing touched
    const fresh = path.join(temps.make(), 'fm');
    expect((await cli(fetchArgs('fortemate', f, fresh, '--limit', '1'))).code).toBe(0);
    mkdirSync(path.join(fresh, 'games', `${games[3].id}.json`));
    const r2 = await cli(fetchArgs('fortemate', f, fresh));
    expect(r2.code).toBe(0);
    const m = readManifestFile(fresh);
    expect(m.counts).toEqual({ listed: 8, fetched: 7, unavailable: 0, failed: 1 });
    expect(m.games.find((g) => g.id === games[3].id)).toMatchObject({ status: 'failed' });
  }, 120_000);

  it('one game listed under two ids is stored once: the other is failed with both ids', async () => {
    const games = fortemateGames(6);
    const twin = { ...renamed(games[1], 'twin-id'), body: games[1].body }; // listed as twin-id, answers as games[1]
    const f = await fake('fortemate', [...games.slice(0, 2), twin, ...games.slice(2)]);
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(0);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 7, fetched: 6, unavailable: 0, failed: 1 });
    expect(m.games.find((g) => g.id === 'twin-id')).toMatchObject({ status: 'failed', error: { code: 'fetch.id-mismatch', message: expect.stringContaining(games[1].id) } });
    expect((await recordsOf(out)).map((x) => x.id).sort()).toEqual(games.map((g) => g.id).sort());
  }, 120_000);

  it('an id of .. cannot change the request path: it is failed, and no request leaves the games path', async () => {
    const games = fortemateGames(4);
    const f = await fake('fortemate', [renamed(games[0], '..'), renamed(games[1], '.'), ...games.slice(2)]);
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(0);
    const m = readManifestFile(out);
    expect(m.counts).toEqual({ listed: 4, fetched: 2, unavailable: 0, failed: 2 });
    expect(m.games.find((g) => g.id === '..')).toMatchObject({ status: 'failed', error: { code: 'fetch.bad-id' } });
    for (const q of f.requests) expect(q.url).toMatch(/^\/(players\/p-1\/games|games\/[^/]+\/history)(\?|$)/);
  }, 120_000);

  it('dicechess.com games whose ids are not UUIDs get their history-list rows (result, players) when replayed', async () => {
    const games = dicechessGames(5).map((g, i) => renamed(g, `game-${i}`));
    const f = await fake('dicechess-com', games);
    const out = path.join(temps.make(), 'dc');
    expect((await cli(fetchArgs('dicechess-com', f, out))).code).toBe(0);
    const records = await recordsOf(out);
    expect(records.map((x) => x.id).sort()).toEqual(games.map((g) => g.id).sort());
    // The players come from the history list only (a state map has none).
    for (const rec of records) expect(Object.keys((rec.players as { white: object }).white).length).toBeGreaterThan(0);
  }, 120_000);
});

describe('secrets in every encoding (22.9)', () => {
  /** Every file of a folder, dot-files included, as text. */
  const allText = (dir: string): string =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8'))
      .join('\n');

  it.each([
    ['DICECHESS_TOKEN', 's3cr3t/T0ken+xyz==', [] as string[]],
    ['--cookie-env', 'session=C00kie/Val+ue==', ['--cookie-env', 'MY_COOKIE']],
  ])('%s: a game answer holding it JSON-escaped is not saved, a redirect carrying it URL-encoded is redacted; no form of it in any file or line', async (_, secret, extra) => {
    const token = extra.length ? TOKEN : secret;
    const games = dicechessGames(6);
    const f = await fake('dicechess-com', games, { token });
    const value = extra.length ? secret.slice(secret.indexOf('=') + 1) : secret;
    const escaped = JSON.stringify(value).slice(1, -1).replace(/\//g, '\\/');
    // Game 1 echoes the secret JSON-escaped; game 2 redirects with it URL-encoded; game 3 with it in base64.
    games[1].body = games[1].body.replace(/^\{/, `{"echo":"${escaped}",`);
    f.faults.set(games[2].id, Array.from({ length: 8 }, () => ({ kind: 'status' as const, status: 302, headers: { location: `${f.url}/login?t=${encodeURIComponent(value)}` } })));
    f.faults.set(games[3].id, Array.from({ length: 8 }, () => ({ kind: 'status' as const, status: 500, body: JSON.stringify({ error: `bad session ${Buffer.from(value).toString('base64')}` }) })));
    const out = path.join(temps.make(), 'dc');
    const r = await cli(['fetch', 'dicechess-com', '--player', PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', ...extra], { DICECHESS_TOKEN: token, MY_COOKIE: secret });
    const m = readManifestFile(out);
    expect(m.games.find((g) => g.id === games[1].id)).toMatchObject({ status: 'failed', error: { code: 'fetch.token-in-body' } });
    expect(m.games.find((g) => g.id === games[2].id)).toMatchObject({ status: 'failed' });
    const everything = `${allText(out)}\n${r.out}\n${r.err}`;
    for (const form of [value, escaped, encodeURIComponent(value), encodeURIComponent(value).toLowerCase(), Buffer.from(value).toString('base64'), Buffer.from(value).toString('base64').replace(/=+$/, '')]) {
      expect(everything, form).not.toContain(form);
    }
    expect(everything).toContain('[redacted]');
  }, 120_000);
});

describe('a listing that answers HTML (22.13)', () => {
  it('says what came instead: status, content type and the first bytes, escaped', async () => {
    const f = await fake('fortemate', fortemateGames(3));
    f.faults.set('list:0', [{ kind: 'garbage' }]);
    const out = path.join(temps.make(), 'fm');
    const r = await cli(fetchArgs('fortemate', f, out));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/got no JSON: HTTP 200, content type application\/json, 24 bytes starting "<html>maintenance<\/html>"/);
  }, 120_000);
});
