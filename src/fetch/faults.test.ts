import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type FetchOptions, runFetch } from './run.js';
import { SITES } from './sites/index.js';
import { type FakeSite, dicechessGames, fortemateGames, startFakeSite } from './test-support/fake-sites.js';
import { TempDirs, readManifestFile } from './test-support/folders.js';

const temps = new TempDirs();
const fakes: FakeSite[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
});
afterAll(() => temps.removeAll());

const PLAYER = 'p-1';

async function fake(site: 'fortemate' | 'dicechess-com', games: ReturnType<typeof fortemateGames>, extra: Partial<Parameters<typeof startFakeSite>[1]> = {}): Promise<FakeSite> {
  const f = await startFakeSite(site, { games, player: PLAYER, pageSize: 10, ...extra });
  fakes.push(f);
  return f;
}

/** A run in process with short backoffs (the politeness is tested by the CLI tests and the figures). */
function options(f: FakeSite, site: 'fortemate' | 'dicechess-com', more: Partial<FetchOptions> = {}): FetchOptions {
  return {
    site: SITES[site],
    base: f.url,
    player: PLAYER,
    ids: null,
    out: path.join(temps.make(), 'out'),
    sinceMs: null,
    limit: null,
    concurrency: 2,
    rate: 0,
    timeoutMs: 5_000,
    token: null,
    pageSize: 10,
    retryUnavailable: false,
    tool: 'dice-dialects/test',
    client: { backoffMs: 10, retries: 3 },
    ...more,
  };
}

const hits = (f: FakeSite, id: string) => f.requests.filter((r) => r.url.includes(encodeURIComponent(id)) || r.url.includes(id));

describe('fetch faults', () => {
  it('retries 429 after its Retry-After, a 500, a reset, a truncated and a stalled body, and a garbled answer, then stores each game whole', async () => {
    const games = fortemateGames(12);
    const f = await fake('fortemate', games);
    f.faults.set(games[0].id, [{ kind: 'status', status: 429, retryAfter: '1' }]);
    f.faults.set(games[1].id, [{ kind: 'status', status: 500 }]);
    f.faults.set(games[2].id, [{ kind: 'reset' }]);
    f.faults.set(games[3].id, [{ kind: 'truncate' }]);
    f.faults.set(games[4].id, [{ kind: 'stall' }]);
    f.faults.set(games[5].id, [{ kind: 'garbage' }]);
    f.faults.set('list:0', [{ kind: 'status', status: 503 }]);
    // The stalled body must time out; 3 s is far beyond a healthy loopback answer, so no healthy request is retried.
    const opts = options(f, 'fortemate', { timeoutMs: 3_000 });
    const r = await runFetch(opts);
    expect(r.stopped).toBeNull();
    const m = readManifestFile(opts.out);
    expect(m.counts).toEqual({ listed: 12, fetched: 12, unavailable: 0, failed: 0 });
    for (const g of games.slice(0, 6)) {
      const e = m.games.find((x) => x.id === g.id)!;
      expect(e.attempts).toBe(2);
      expect(readFileSync(path.join(opts.out, e.file!), 'utf8')).toBe(g.body);
    }
    // Retry-After: 1 was honoured (a lower bound, whatever the load).
    const [first, second] = hits(f, games[0].id);
    expect(second.at - first.at).toBeGreaterThanOrEqual(950);
    expect(readdirNoTemps(opts.out)).toBe(true);
  });

  it('a game that keeps failing is recorded as failed, the run goes on, and the next run retries it', async () => {
    const games = fortemateGames(8);
    const f = await fake('fortemate', games);
    f.faults.set(games[2].id, Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 502 })));
    const opts = options(f, 'fortemate');
    const r = await runFetch(opts);
    expect(r.stopped).toBeNull();
    let m = readManifestFile(opts.out);
    expect(m.counts).toEqual({ listed: 8, fetched: 7, unavailable: 0, failed: 1 });
    const bad = m.games.find((g) => g.id === games[2].id)!;
    expect(bad).toMatchObject({ status: 'failed', httpStatus: 502, attempts: 4, error: { code: 'http.status' } });
    expect(bad.error!.message).toMatch(/HTTP 502 .* after 4 tries/);
    f.requests.length = 0;
    const again = await runFetch(opts);
    expect(again.stopped).toBeNull();
    m = readManifestFile(opts.out);
    expect(m.counts).toEqual({ listed: 8, fetched: 8, unavailable: 0, failed: 0 });
    expect(m.games.find((g) => g.id === games[2].id)!.attempts).toBe(5);
    expect(f.requests.filter((q) => q.url.startsWith('/games/'))).toHaveLength(1);
  });

  it('a body over the cap fails that game without reading the rest', async () => {
    const games = fortemateGames(3);
    const f = await fake('fortemate', games);
    const opts = options(f, 'fortemate', { client: { backoffMs: 10, retries: 1, maxBytes: 1000 } });
    await runFetch(opts);
    const m = readManifestFile(opts.out);
    expect(m.counts.failed).toBe(3);
    expect(m.games[0].error).toMatchObject({ code: 'http.too-large' });
  });

  it('a listing that is not the documented shape ends the run with a message saying what was expected', async () => {
    const f = await fake('fortemate', fortemateGames(3));
    f.faults.set('list:0', [{ kind: 'status', status: 200, body: '{"items": []}' }]);
    const r = await runFetch(options(f, 'fortemate'));
    expect(r.stopped?.code).toBe('fetch.listing');
    expect(r.stopped?.message).toMatch(/expected \{"games": \[\.\.\.\], "hasMore": bool\}, got an object with keys items/);
  });

  it('dicechess.com: a server capping pages below the size asked for is still paged to the end; a top-level array envelope is read', async () => {
    const games = dicechessGames(23);
    const f = await fake('dicechess-com', games, { pageSize: 7 });
    const opts = options(f, 'dicechess-com', { pageSize: 50 });
    const r = await runFetch(opts);
    expect(r.stopped).toBeNull();
    expect(readManifestFile(opts.out).counts.fetched).toBe(23);
    expect(f.requests.filter((q) => q.method === 'POST').map((q) => JSON.parse(q.body).first)).toEqual([0, 7, 14, 21]);
    const g = dicechessGames(2, 'arr');
    const f2 = await fake('dicechess-com', g);
    f2.faults.set('list:0', [{ kind: 'status', status: 200, body: JSON.stringify(g.map((x) => x.row)) }]);
    const o2 = options(f2, 'dicechess-com');
    expect((await runFetch(o2)).stopped).toBeNull();
    expect(readManifestFile(o2.out).counts.fetched).toBe(2);
  });

  it('a last page that is exactly full: Fortemate ends on hasMore false, dicechess.com on the empty page after it', async () => {
    const fm = await fake('fortemate', fortemateGames(40), { pageSize: 20 });
    const o1 = options(fm, 'fortemate');
    expect((await runFetch(o1)).stopped).toBeNull();
    expect(fm.requests.filter((q) => q.url.startsWith('/players/'))).toHaveLength(2);
    expect(readManifestFile(o1.out).counts.fetched).toBe(40);
    const dc = await fake('dicechess-com', dicechessGames(20));
    const o2 = options(dc, 'dicechess-com');
    const r = await runFetch(o2);
    expect(r.stopped).toBeNull();
    expect(r.progress.pages).toBe(3);
    expect(dc.requests.filter((q) => q.method === 'POST').map((q) => JSON.parse(q.body).first)).toEqual([0, 10, 20]);
    expect(readManifestFile(o2.out)).toMatchObject({ counts: { listed: 20, fetched: 20 }, cursor: { offset: 20, exhausted: true } });
  });

  it('a game fetched before its fairness reveal is asked for again by later runs, and its own file replaced once revealed', async () => {
    const games = fortemateGames(3);
    const revealed = games[1].body;
    const doc = JSON.parse(revealed);
    expect(doc.fairness.seed).toEqual(expect.any(String));
    games[1].body = JSON.stringify({ ...doc, fairness: { ...doc.fairness, seed: null, clientSeeds: null } });
    const f = await fake('fortemate', games);
    const opts = options(f, 'fortemate');
    const entry = () => readManifestFile(opts.out).games.find((g) => g.id === games[1].id)!;
    await runFetch(opts);
    expect(entry()).toMatchObject({ status: 'fetched', refresh: { reason: expect.stringMatching(/not public yet/), left: 5 } });
    f.requests.length = 0;
    await runFetch(opts);
    expect(f.requests.filter((q) => q.url.startsWith('/games/')).map((q) => q.url)).toEqual([`/games/${games[1].id}/history`]);
    expect(entry().refresh).toMatchObject({ left: 4 });
    // A refresh that fails keeps the game already stored.
    f.faults.set(games[1].id, Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 500 })));
    await runFetch(opts);
    expect(entry()).toMatchObject({ status: 'fetched', refresh: { left: 3 } });
    games[1].body = revealed;
    await runFetch(opts);
    const e = entry();
    expect(e.refresh).toBeNull();
    expect(readFileSync(path.join(opts.out, e.file!), 'utf8')).toBe(revealed);
    f.requests.length = 0;
    await runFetch(opts);
    expect(f.requests.filter((q) => q.url.startsWith('/games/'))).toHaveLength(0);
    expect(readManifestFile(opts.out).counts).toEqual({ listed: 3, fetched: 3, unavailable: 0, failed: 0 });
  });

  it('a 429 asking for a wait longer than allowed fails the game with the reason', async () => {
    const games = fortemateGames(2);
    const f = await fake('fortemate', games);
    f.faults.set(games[0].id, [{ kind: 'status', status: 429, retryAfter: '86400' }]);
    const opts = options(f, 'fortemate');
    await runFetch(opts);
    const e = readManifestFile(opts.out).games.find((g) => g.id === games[0].id)!;
    expect(e).toMatchObject({ status: 'failed', httpStatus: 429, error: { code: 'http.retry-after' } });
    expect(e.error!.message).toMatch(/asks to wait 86400 s/);
  });
});

function readdirNoTemps(dir: string): boolean {
  return ![...readdirSync(dir), ...readdirSync(path.join(dir, 'games'))].some((n) => /\.tmp(-|$)/.test(n)); // the shared publisher's temporaries, and the old writer's
}
