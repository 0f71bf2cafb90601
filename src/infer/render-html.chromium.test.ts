import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { launch, skipWithoutChromium, watchedPage } from '../test-support/chromium.js';

const skip = skipWithoutChromium();
const dir = mkdtempSync(join(tmpdir(), 'dd-infer-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('infer report.html in headless Chromium', () => {
  it.skipIf(skip)('loads offline with no console errors, one section per option and a board per decisive game', async () => {
    const out = join(dir, 'run');
    const r = await runCli('infer', 'corpora/samples/reference/games.ndjson.gz', '--limit', '100', '--dialect', 'reference', '--option', 'maximum=path,micro-move', '--option', 'clock.passEarnsIncrement', '--out', out, '--jobs', '1', '--quiet');
    expect(r.code).toBe(0);
    const file = join(out, 'report.html');
    const browser = await launch();
    try {
      const { page, problems, requests } = await watchedPage(browser, { width: 1200, height: 900 });
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(problems).toEqual([]);
      expect(await page.locator('body script').count()).toBe(0);
      expect(await page.locator('h2').allInnerTexts()).toEqual(['maximum', 'clock.passEarnsIncrement']);
      expect(await page.locator('p.verdict.supported').count()).toBeGreaterThanOrEqual(2);
      const boards = page.locator('svg.board');
      expect(await boards.count()).toBeGreaterThan(1);
      const box = await boards.first().boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(await page.locator('pre', { hasText: '--set maximum=path' }).count()).toBeGreaterThan(0);
      // One evidence chart per option (conforming games per value, evidence per pair), laid out at its size.
      const charts = page.locator('svg.chart');
      expect(await charts.count()).toBe(2);
      expect((await charts.first().boundingBox())!.width).toBeGreaterThan(400);
      expect(await page.locator('p.evidence').count()).toBe(2);
    } finally {
      await browser.close();
    }
  }, 240_000);
});
