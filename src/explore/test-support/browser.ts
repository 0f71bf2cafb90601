import type { Page } from 'playwright-core';

export { CHROMIUM, hasChromium, launch, skipWithoutChromium, watchedPage } from '../../test-support/chromium.js';

export interface PanelDom {
  moves: string[];
  verdict: string;
  turnCount: string | null;
  error: string | null;
}

/** Every dialect column as the DOM shows it (the automated-check contract). */
export function readPanels(page: Page): Promise<Record<string, PanelDom>> {
  return page.evaluate(() => {
    const out: Record<string, { moves: string[]; verdict: string; turnCount: string | null; error: string | null }> = {};
    for (const p of document.querySelectorAll('[data-dialect]')) {
      out[p.getAttribute('data-dialect')!] = {
        moves: [...p.querySelectorAll('[data-uci]')].map((e) => e.getAttribute('data-uci')!),
        verdict: p.querySelector('[data-verdict]')?.textContent ?? '(none)',
        turnCount: p.querySelector('[data-turn-count]')?.getAttribute('data-turn-count') ?? null,
        error: p.querySelector('.error')?.textContent ?? null,
      };
    }
    return out;
  });
}

/** Sets the hash and waits until the page has rendered it. */
export async function goHash(page: Page, hash: string): Promise<void> {
  const before = await page.evaluate(() => Number(document.body.dataset.renders ?? 0));
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await page.waitForFunction((n) => Number(document.body.dataset.renders ?? 0) > n, before);
}
