import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderHtml } from './render-html.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { DIALECTS, HOSTILE, RUN_INFO, sampleDiceTurns, sampleLines } from './test-support/fixtures.js';
import { tempDir } from '../test-support/temp-dir.js';
import { launch, skipWithoutChromium, watchedPage } from '../test-support/chromium.js';
import { ruleKinds } from '../run/rule-kinds.js';

const skip = skipWithoutChromium();

describe('report.html in headless Chromium', () => {
  it.skipIf(skip)('loads offline with no console errors and shows the boards', async () => {
    const b = new SummaryBuilder(DIALECTS);
    for (const l of sampleLines()) b.addResult(l);
    for (const t of sampleDiceTurns()) b.addDiceTurn(t);
    const out = tempDir('dice-report-html-');
    const file = join(out, 'report.html');
    await writeFile(file, renderHtml(b.build(RUN_INFO), { kinds: ruleKinds(b.build(RUN_INFO)) }));

    const browser = await launch();
    try {
      const { page, problems, requests } = await watchedPage(browser, { width: 1200, height: 900 });

      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });

      // The only request is the page itself: no network, no fonts, no images fetched.
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(problems).toEqual([]);
      // Hostile text is shown as text, not run.
      expect(await page.locator('h4', { hasText: HOSTILE }).count()).toBe(1);
      expect(await page.locator('body script').count()).toBe(0);

      const boards = page.locator('svg.board');
      expect(await boards.count()).toBe(5);
      for (let i = 0; i < 5; i++) {
        await expect.poll(() => boards.nth(i).isVisible()).toBe(true);
        const box = await boards.nth(i).boundingBox();
        expect(box!.width).toBeGreaterThan(300);
        expect(box!.height).toBeGreaterThan(300);
      }
      // Glyphs are laid out with real width (a missing font would still draw something, but not zero).
      const pieceWidth = await page.locator('svg.board text.piece').first().evaluate((el) => (el as SVGTextElement).getComputedTextLength());
      expect(pieceWidth).toBeGreaterThan(10);
      expect(await page.locator('svg.chart').count()).toBe(3);

      const full = join(out, 'report-full.png');
      await page.screenshot({ path: full, fullPage: true });
      const example = join(out, 'report-example.png');
      await page.locator('.example').nth(1).screenshot({ path: example });
      console.log(`report.html screenshots: ${full} ${example}`);
    } finally {
      await browser.close();
    }
  });
});
