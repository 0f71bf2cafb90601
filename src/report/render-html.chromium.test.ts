import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { renderHtml } from './render-html.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { DIALECTS, HOSTILE, RUN_INFO, sampleDiceTurns, sampleLines } from './test-support/fixtures.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`report.html browser test skipped: ${CHROMIUM} is absent (apt-get install chromium)`);

describe('report.html in headless Chromium', () => {
  it.skipIf(!hasChromium)('loads offline with no console errors and shows the boards', async () => {
    const b = new SummaryBuilder(DIALECTS);
    for (const l of sampleLines()) b.addResult(l);
    for (const t of sampleDiceTurns()) b.addDiceTurn(t);
    const out = await mkdtemp(join(tmpdir(), 'dice-report-html-'));
    const file = join(out, 'report.html');
    await writeFile(file, renderHtml(b.build(RUN_INFO)));

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      page.on('request', (r) => requests.push(r.url()));
      page.on('dialog', (d) => {
        problems.push(`dialog opened: ${d.message()}`);
        void d.dismiss();
      });

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
