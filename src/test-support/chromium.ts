// Debian's chromium, headless through playwright-core, for every test with a page.
import { type Browser, chromium, type Page } from 'playwright-core';
import { findProgram, skipWithout } from './binaries.js';

/** Chromium found on PATH (or CHROMIUM=/path); null when absent. */
export const CHROMIUM: string | null = process.env.CHROMIUM || findProgram(['chromium', 'chromium-browser']);
export const hasChromium = CHROMIUM !== null;

/** For a test file's top: true = skip its browser tests (no Chromium, outside CI); under CI=true a missing Chromium fails them. */
export const skipWithoutChromium = (): boolean => skipWithout(CHROMIUM, 'chromium', 'apt-get install chromium');

/** Playwright's launch gives each browser a fresh temporary profile (its own --user-data-dir, removed on close). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM ?? undefined,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page that records console errors and warnings, page errors, dialogs and every request. */
export async function watchedPage(browser: Browser, viewport = { width: 1400, height: 1000 }): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport });
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
