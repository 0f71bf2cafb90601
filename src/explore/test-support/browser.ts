import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Playwright's launch gives each browser a fresh temporary profile (its own --user-data-dir, removed on close). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page that records console errors and warnings, page errors, dialogs and every request. */
export async function watchedPage(browser: Browser): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
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
  return { page, problems, requests };
}

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
