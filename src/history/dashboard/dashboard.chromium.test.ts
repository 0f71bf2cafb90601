import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, skipWithoutChromium, watchedPage } from '../../test-support/chromium.js';
import { tempDir } from '../../test-support/temp-dir.js';
import { BIN, cli, EVIL_ID, makeRuns } from '../test-support/runs.js';
import { NO_CHECK } from '../../report/repro.js';

const skip = skipWithoutChromium();

/** `serve` as a whole process; resolves once it prints its URL. */
async function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => (err += String(c)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += String(c);
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/)\n/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
  });
  return { url, child };
}

describe.skipIf(skip)('the history dashboard in headless Chromium', () => {
  let dir: string;
  let db: string;
  let server: { url: string; child: ChildProcess };
  beforeAll(async () => {
    dir = tempDir('history-dashboard-');
    const { runs } = makeRuns(dir);
    db = join(dir, 'history.db');
    expect(cli(['history', 'record', ...runs, '--db', db]).code).toBe(0);
    server = await serve(db);
  }, 180_000);
  afterAll(async () => {
    if (!server) return;
    const gone = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await gone;
  });

  it('renders every page with no console error and no request beyond the server; charts have one point per run; record strings are text', async () => {
    const shots = process.env.DICE_DIALECTS_SCREENSHOTS ?? dir;
    const browser = await launch();
    try {
      const { page, problems, requests } = await watchedPage(browser, { width: 1200, height: 900 });
      const go = async (path: string, status = 200) => {
        const r = await page.goto(new URL(path, server.url).href, { waitUntil: 'load' });
        expect(r!.status(), path).toBe(status);
        return r!;
      };

      await go('/');
      expect(await page.locator('tbody tr').count()).toBe(3);
      await page.screenshot({ path: join(shots, 'history-runs.png'), fullPage: true });

      await go('/trend');
      const charts = page.locator('svg.trend');
      expect(await charts.count()).toBeGreaterThanOrEqual(3);
      // Per dialect: three series (conforming, diverging, unreadable), one point each per run.
      for (let i = 0; i < 2; i++) {
        expect(await charts.nth(i).getAttribute('data-runs')).toBe('3');
        expect(await charts.nth(i).locator('circle.point').count()).toBe(3 * 3);
      }
      await page.screenshot({ path: join(shots, 'history-trend.png'), fullPage: true });

      await go('/runs/2');
      const report = page.locator('a', { hasText: 'open its report' });
      expect(await report.count()).toBe(1);
      await report.click();
      await page.waitForLoadState('load');
      expect(page.url()).toMatch(/\/runs\/2\/report\.html$/);
      expect(await page.locator('h1').textContent()).toMatch(/replay report/);

      const d = JSON.parse(cli(['history', 'diff', '1', '2', '--db', db, '--json']).out);
      await go(`/diff?a=1&b=2`);
      expect(await page.locator('h2', { hasText: `Broken (${d.broken.length})` }).count()).toBe(1);
      expect(await page.locator('h2', { hasText: `Fixed (${d.fixed.length})` }).count()).toBe(1);
      await page.screenshot({ path: join(shots, 'history-diff.png'), fullPage: true });

      // The game page of a broken game: its transition with a board, its check command and an explorer link.
      await page.locator('h2', { hasText: 'Broken' }).locator('xpath=following-sibling::table[1]').locator('tbody tr a').first().click();
      await page.waitForLoadState('load');
      expect(page.url()).toMatch(/\/game\?id=/);
      expect(await page.locator('.example').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('.example svg.board').count()).toBeGreaterThanOrEqual(1);
      // Its check command, or, where no command shows the finding from its position, the sentence that says so.
      const commands = await page.locator('pre', { hasText: 'dice-dialects check --dialect' }).count();
      expect(commands + (await page.getByText(NO_CHECK).count())).toBeGreaterThanOrEqual(1);
      const explorer = page.locator('a', { hasText: 'open the position in the explorer' }).first();
      expect(await explorer.getAttribute('href')).toMatch(/^\/runs\/\d+\/explorer\.html#dfen=/);
      await page.screenshot({ path: join(shots, 'history-game.png'), fullPage: true });

      // A record id holding markup is shown as text, on the game page and in search results.
      await go(`/game?id=${encodeURIComponent(EVIL_ID)}`);
      expect(await page.locator('h1').textContent()).toBe(`Game ${EVIL_ID}`);
      expect(await page.title()).not.toBe('pwned');
      expect(await page.locator('body script, body img').count()).toBe(0);

      // The search box: the same rows as history search --json; the URL holds the query.
      await go('/');
      const q = 'dialect:reference status:diverging since:2';
      await page.locator('input[name=q]').fill(q);
      await page.locator('nav button[type=submit]').click();
      await page.waitForLoadState('load');
      expect(new URL(page.url()).searchParams.get('q')).toBe(q);
      const shown = await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));
      const answer = JSON.parse(cli(['history', 'search', q, '--db', db, '--json']).out);
      expect(answer.rows.length).toBeGreaterThan(0);
      expect(shown.map((c) => [c[0], c[2], c[3], c[4]])).toEqual(answer.rows.map((r: { run: number; dialect: string; game: string; status: string }) => [`#${r.run}`, r.dialect, r.game, r.status]));
      await page.screenshot({ path: join(shots, 'history-search.png'), fullPage: true });
      const evil = await page.goto(new URL(`/search?q=${encodeURIComponent('source:*evil*')}`, server.url).href);
      expect(evil!.status()).toBe(200);
      expect(await page.locator("tbody tr", { hasText: EVIL_ID }).count()).toBe(4);
      expect(await page.locator('body script, body img').count()).toBe(0);

      expect(problems).toEqual([]);
      // The right status for what is not there, or not asked right (the browser logs each such answer).
      await go('/no-such-page', 404);
      await go('/runs/99', 404);
      await go('/game?id=nobody', 404);
      await go(`/search?q=${encodeURIComponent('dialect:x foo:y')}`, 400);
      expect(await page.locator('.banner').textContent()).toMatch(/unknown key "foo:" .* at column 11/);
      expect(problems.map((p) => p.replace(/.*status of (\d+).*/, '$1'))).toEqual(['404', '404', '404', '400']);
      const origin = new URL(server.url).origin;
      expect(requests.filter((r) => !r.startsWith(origin))).toEqual([]);
      console.log(`dashboard screenshots in ${shots}: ${readdirSync(shots).filter((f) => f.endsWith('.png')).join(' ')}`);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('the JSON routes are the history commands; the server is read-only', async () => {
    const api = async (path: string) => {
      const r = await fetch(new URL(path, server.url));
      return { status: r.status, body: await r.json() };
    };
    expect((await api('/api/search?q=status%3Aunreadable')).body).toEqual(JSON.parse(cli(['history', 'search', 'status:unreadable', '--db', db, '--json']).out));
    expect((await api('/api/trend')).body).toEqual(JSON.parse(cli(['history', 'trend', '--db', db, '--json']).out));
    expect((await api('/api/runs/7')).status).toBe(404);
    const post = await fetch(new URL('/api/runs', server.url), { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
  });

  it('history site writes the runs, trend and latest-diff pages as files', async () => {
    const out = join(dir, 'site');
    const r = cli(['history', 'site', '--db', db, '--out', out]);
    expect(r.code).toBe(0);
    for (const f of ['index.html', 'trend.html', 'diff.html', 'runs.json', 'trend.json', 'diff.json']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(readFileSync(join(out, 'diff.html'), 'utf8')).toContain('Diff #2 → #3');
    const browser = await launch();
    try {
      const { page, problems, requests } = await watchedPage(browser);
      for (const f of ['index.html', 'trend.html', 'diff.html']) await page.goto(`file://${join(out, f)}`, { waitUntil: 'load' });
      expect(await page.locator('h1').textContent()).toBe('Diff #2 → #3');
      expect(problems).toEqual([]);
      expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
    } finally {
      await browser.close();
    }
    // Written again over itself; never over a folder it did not write.
    expect(cli(['history', 'site', '--db', db, '--out', out]).code).toBe(0);
    const foreign = cli(['history', 'site', '--db', db, '--out', dir]);
    expect(foreign.code).toBe(2);
    expect(foreign.err).toMatch(/is not a history site written by dice-dialects/);
    // A site that also holds a file of someone else's is not replaced either: replacing it would delete the file.
    writeFileSync(join(out, 'CNAME'), 'example.org\n');
    const kept = cli(['history', 'site', '--db', db, '--out', out]);
    expect([kept.code, kept.err.trim().split('\n').length]).toEqual([2, 1]);
    expect(kept.err).toMatch(/also holds what dice-dialects did not write \(CNAME\)/);
    expect(readFileSync(join(out, 'CNAME'), 'utf8')).toBe('example.org\n');
    // A file is refused in one line, no stack trace.
    const file = cli(['history', 'site', '--db', db, '--out', join(out, 'CNAME')]);
    expect([file.code, file.err]).toEqual([2, `dice-dialects: --out ${join(out, 'CNAME')}: exists and is a file, not a history site (nothing was written; choose a new folder)\n`]);
  }, 120_000);
});
