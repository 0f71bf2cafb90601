import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/paths.js';
import { type FakeSite, type FakeSiteOptions, dicechessGames, fortemateGames, startFakeSite } from './test-support/fake-sites.js';
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
