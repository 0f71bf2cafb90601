import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { listDialects, packageRoot } from '../dialects/index.js';
import { runReplay } from '../index.js';
import { formatHash, parseHash } from './page/hash.js';
import { goHash, launch, skipWithoutChromium, readPanels, watchedPage } from './test-support/browser.js';

const run = promisify(execFile);
const root = packageRoot();
const BIN = join(root, 'bin', 'dice-dialects.js');
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const NAMES = listDialects().map((d) => d.name);
const hash = (dfen: string, turn: string[] | null = null, set = ''): string => formatHash({ dfen, turn, step: 0, set, focus: '' });


describe.skipIf(skipWithoutChromium())('the explorer page in headless Chromium', () => {
  let dir: string;
  let browser: Browser;
  let pageUrl: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dice-explore-'));
    // The real command, as a user runs it.
    const { stdout } = await run(process.execPath, [BIN, 'explore', '--out', join(dir, 'site')]);
    expect(stdout.trim()).toBe(join(dir, 'site', 'index.html'));
    pageUrl = pathToFileURL(join(dir, 'site', 'index.html')).href;
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('from file://: the opening with P,N,B shows exactly the first micro-moves `moves` prints for each dialect; no console error, no request but the page', async () => {
    const { page, problems, requests } = await watchedPage(browser);
    const url = pageUrl + hash(`${START} PNB`);
    await page.goto(url);
    await page.waitForSelector('body[data-ready]');
    const panels = await readPanels(page);
    expect(Object.keys(panels).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const cli = await runCli('moves', '--dialect', name, '--dfen', `${START} PNB`, '--json');
      // A dialect that rolls fewer dice refuses the DFEN (exit 2): no move in its column, and it says why.
      if (cli.code === 0) expect(panels[name].moves, name).toEqual(JSON.parse(cli.out));
      else expect([panels[name].moves, panels[name].error !== null], name).toEqual([[], true]);
    }
    // The real process for one dialect, too.
    const { stdout } = await run(process.execPath, [BIN, 'moves', '--dialect', 'dicechess.com', '--dfen', `${START} PNB`]);
    expect(panels['dicechess-com'].moves).toEqual(stdout.trim().split('\n'));
    expect(panels.reference.moves).toHaveLength(12);
    await page.screenshot({ path: join(dir, 'explorer-opening.png'), fullPage: true });
    expect(problems).toEqual([]);
    expect(requests).toEqual([url.replace(/#.*/, '')]);
    await page.close();
  });

  it('the forms with rolls of their own as columns: a count die\'s * (any piece), a king die making a second king, one knight twice, an any face: each column shows what `moves` prints, the others say why they cannot', async () => {
    const { page, problems } = await watchedPage(browser);
    const forms: Array<[string, string, string]> = [
      [`${START} *`, 'gollon-count-die', 'e2e4'],
      ['8/Pk6/8/8/8/8/8/4K3 w - - 0 5 K', 'vchess-dice', 'a7a8k'],
      [`${START} NN`, 'gollon-piece-and-count', 'g1f3'],
      [`${START} KPNBRQK`, 'vegas-fun-chess', 'e2e4'],
    ];
    await page.goto(pageUrl + hash(forms[0][0]));
    await page.waitForSelector('body[data-ready]');
    for (const [i, [dfen, form, move]] of forms.entries()) {
      if (i > 0) await goHash(page, hash(dfen));
      const panels = await readPanels(page);
      expect(panels[form].moves, `${form} ${dfen}`).toContain(move);
      for (const name of NAMES) {
        const cli = await runCli('moves', '--dialect', name, '--dfen', dfen, '--json');
        if (cli.code === 0) expect(panels[name].moves, `${name} ${dfen}`).toEqual(JSON.parse(cli.out));
        else expect([panels[name].moves, panels[name].error !== null], `${name} ${dfen}`).toEqual([[], true]);
      }
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the worked positions of docs/rules.md §10.1: the three readings of the maximum rule side by side (reference+maximum=…)', async () => {
    const { page, problems } = await watchedPage(browser);
    const set = 'reference+maximum=path-all\nreference+maximum=micro-move';
    await page.goto(pageUrl + hash('8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', null, set));
    await page.waitForSelector('body[data-ready]');
    let panels = await readPanels(page);
    expect(panels.reference.moves).toEqual(['a2a3', 'a2a4', 'e7e8b', 'e7e8n', 'e7e8q', 'e7e8r']);
    expect(panels['reference+maximum=path-all'].moves).toEqual(['e7e8n']);
    expect(panels['reference+maximum=micro-move'].moves).toEqual(['e7e8n']);
    const turns = (key: string) => page.locator(`[data-dialect="${key}"] [data-turn]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-turn')).sort());
    expect(await turns('reference')).toEqual(['a2a3', 'a2a4', 'e7e8b', 'e7e8n,e8g7', 'e7e8q', 'e7e8r']);
    expect(await turns('reference+maximum=path-all')).toEqual(['e7e8n,e8g7']);
    // The columns differ, and the page says so (a highlighted column, a difference marked in the lists).
    expect(await page.locator('[data-dialect="reference"].differs').count()).toBe(1);
    expect(await page.locator('[data-dialect="reference"] [data-uci="a2a3"].differs').count()).toBe(1);

    await goHash(page, hash('7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ', ['e7e8r', 'e8h8'], set));
    panels = await readPanels(page);
    expect(panels.reference.verdict).toBe('legal');
    expect(panels['reference+maximum=micro-move'].moves).not.toContain('e7e8r');
    const check = await runCli('check', '--dialect', 'reference', '--set', 'maximum=micro-move', '--dfen', '7k/4P3/8/8/8/K4R2/8/8 w - - 0 1 PRQ', '--turn', 'e7e8r,e8h8', '--json');
    expect(panels['reference+maximum=micro-move'].verdict).toBe(JSON.parse(check.out).rule);
    expect(panels['reference+maximum=micro-move'].verdict).toBe('maximum.fewer-dice');
    await page.screenshot({ path: join(dir, 'explorer-maximum.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a typed illegal turn shows the rule id `check` prints, with its sentence; typing and clicking faces write a hash that reproduces the state', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(pageUrl);
    await page.waitForSelector('body[data-ready]');
    await page.fill('#dfen', START);
    await page.dispatchEvent('#dfen', 'change');
    for (const face of ['1', '3']) await page.click(`#faces button[data-face="${face}"]`);
    await page.fill('#turn', 'a2a3');
    await page.dispatchEvent('#turn', 'change');
    const panels = await readPanels(page);
    const { stdout } = await run(process.execPath, [BIN, 'check', '--dialect', 'reference', '--dfen', `${START} PB`, '--turn', 'a2a3']).catch((e: { stdout: string }) => e);
    expect(stdout).toMatch(/^maximum\.fewer-dice at micro-move 0: /);
    expect(panels.reference.verdict).toBe('maximum.fewer-dice');
    const sentence = await page.locator('[data-dialect="reference"] .sentence').textContent();
    expect(sentence).toContain(JSON.parse((await runCli('check', '--dialect', 'reference', '--dfen', `${START} PB`, '--turn', 'a2a3', '--json')).out).message);
    for (const name of NAMES) {
      const cli = await runCli('check', '--dialect', name, '--dfen', `${START} PB`, '--turn', 'a2a3', '--json');
      if (cli.code === 2) expect(panels[name].verdict, name).toBe('');
      else expect(panels[name].verdict, name).toBe(JSON.parse(cli.out).legal ? 'legal' : JSON.parse(cli.out).rule);
    }
    const url = page.url();
    expect(decodeURIComponent(url.slice(url.indexOf('#')))).toBe(`#dfen=${START} PB&turn=a2a3`);
    const shown = await page.locator('#panels').innerHTML();
    const again = await watchedPage(browser);
    await again.page.goto(url);
    await again.page.waitForSelector('body[data-ready]');
    expect(await again.page.locator('#panels').innerHTML()).toBe(shown);
    expect(await again.page.inputValue('#turn')).toBe('a2a3');
    expect([...problems, ...again.problems]).toEqual([]);
    await page.close();
    await again.page.close();
  });

  it('steps through a turn micro-move by micro-move, and takes a dropped dialect file as a column of its own', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(pageUrl + hash(`${START} PNB`, ['e2e4', 'f1c4', 'b1c3']));
    await page.waitForSelector('body[data-ready]');
    expect((await readPanels(page)).reference.verdict).toBe('legal');
    await page.click('#step-next');
    expect(await page.textContent('#step-label')).toBe('step 1 of 3');
    expect(page.url()).toContain('step=1');
    const title = page.locator('[data-dialect="reference"] svg.board title');
    expect(await title.textContent()).toBe('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 NB');
    const next = await page.locator('[data-dialect="reference"] [data-next]').evaluateAll((els) => els.map((e) => e.getAttribute('data-next')));
    expect(next).toContain('f1c4');
    expect(next).toContain('b1c3');
    // First micro-moves stay the turn's first micro-moves whatever the step.
    expect((await readPanels(page)).reference.moves).toHaveLength(12);
    await page.click('#step-last');
    expect(await page.textContent('#step-label')).toBe('step 3 of 3');

    const house = { name: 'house-rules', title: 'House rules', extends: 'reference', maximum: { value: 'micro-move', source: 'https://example.org/our-club-rules' } };
    await page.setInputFiles('#file', { name: 'house-rules.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(house)) });
    await page.waitForSelector('[data-dialect="house-rules"]');
    // The picker is emptied once read, so picking the same file again (mended) is a change of its own.
    expect(await page.inputValue('#file')).toBe('');
    await goHash(page, hash('8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN'));
    expect((await readPanels(page))['house-rules'].moves).toEqual(['e7e8n']);
    // A broken dialect file is reported with its JSON path, and the rest still works.
    await page.setInputFiles('#file', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ name: 'bad', extends: 'reference', maximum: { value: 'sometimes', source: 'assumed' } })) });
    await page.waitForSelector('[data-dialect="bad"] .error');
    expect(await page.locator('[data-dialect="bad"] .error').textContent()).toMatch(/maximum/);
    await page.screenshot({ path: join(dir, 'explorer-dropped.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('an unparseable turn: every column that plays the position gives the rule id `check` names (uci.syntax) as its verdict, and the step control is off', async () => {
    const { page, problems } = await watchedPage(browser);
    // A link may ask for a step the turn cannot take: no board is stepped.
    await page.goto(`${pageUrl}${hash(`${START} PNB`, ['zz9', 'e2e4'])}&step=1`);
    await page.waitForSelector('body[data-ready]');
    const check = await runCli('check', '--dialect', 'reference', '--dfen', `${START} PNB`, '--turn', 'zz9,e2e4');
    expect(check.code).toBe(2);
    expect(check.err).toContain('(uci.syntax)');
    const verdicts = await page.locator('[data-dialect]').evaluateAll((els) =>
      Object.fromEntries(
        els.map((e): [string, [string | null, string | null, boolean]] => [e.getAttribute('data-dialect')!, [e.querySelector('[data-verdict]')!.getAttribute('data-verdict'), e.querySelector('[data-verdict]')!.textContent, e.querySelector('.error') !== null]]),
      ),
    );
    for (const [name, [attr, text, unplayable]] of Object.entries(verdicts)) {
      // A column that cannot play the position has no verdict at all (`check` exits 2 on the DFEN first).
      expect([attr, text], name).toEqual(unplayable ? ['', ''] : ['uci.syntax', 'uci.syntax']);
    }
    expect(verdicts.reference).toEqual(['uci.syntax', 'uci.syntax', false]);
    expect(await page.locator('[data-dialect="reference"] .sentence').textContent()).toContain('"zz9" is not a UCI move');
    for (const id of ['step-first', 'step-prev', 'step-next', 'step-last']) expect(await page.locator(`#${id}`).isDisabled(), id).toBe(true);
    expect(await page.textContent('#step-label')).not.toMatch(/^step \d+ of/);
    expect(await page.textContent('#step-label')).toContain('zz9');
    expect(page.url()).not.toContain('step=');
    expect(await page.locator('[data-dialect="reference"] svg.board title').textContent()).toBe(`${START} PNB`);
    // A readable turn steps again.
    await page.fill('#turn', 'e2e4,f1c4');
    await page.dispatchEvent('#turn', 'change');
    expect(await page.textContent('#step-label')).toBe('step 0 of 2');
    expect(await page.locator('#step-next').isDisabled()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a bad line in the options box is marked with its line number and reason; the other lines apply and every column still renders', async () => {
    const { page, problems } = await watchedPage(browser);
    const set = 'maximum=sometimes\nenPassant.windw=first-micro-move\nmaximum=micro-move\nnonsense\nreference+maximum=path-all';
    await page.goto(pageUrl + hash('8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', null, set));
    await page.waitForSelector('body[data-ready]');
    const panels = await readPanels(page);
    expect(Object.keys(panels).sort()).toEqual([...NAMES, 'reference+maximum=path-all'].sort());
    // Line 3 applies to every column (the file's "path" becomes "micro-move"), line 5 is a column of its own.
    expect(panels.reference.moves).toEqual(['e7e8n']);
    expect(panels.reference.error).toBeNull();
    expect(panels['reference+maximum=path-all'].moves).toEqual(['e7e8n']);
    const marked = await page.locator('#set-problems [data-line]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-line'), e.textContent]));
    expect(marked.map(([line]) => line)).toEqual(['1', '2', '4']);
    expect(marked[0][1]).toMatch(/^line 1, "maximum=sometimes": .*"sometimes"/);
    expect(marked[0][1]).toContain('micro-move');
    expect(marked[1][1]).toMatch(/^line 2, "enPassant.windw=first-micro-move": .*not a dialect option.*enPassant\.window/);
    expect(marked[2][1]).toMatch(/^line 4, "nonsense": .*path=value/);
    // Mending the lines takes the marks away.
    await page.fill('#set', 'maximum=micro-move');
    await page.dispatchEvent('#set', 'change');
    expect(await page.locator('#set-problems [data-line]').count()).toBe(0);
    expect((await readPanels(page)).reference.moves).toEqual(['e7e8n']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('dropped dialect files that cannot be played (schema errors, not an object, not JSON) are listed under "Not playable under" with the reason; the other columns still work', async () => {
    const { page, problems } = await watchedPage(browser);
    await page.goto(pageUrl + hash(`${START} PNB`));
    await page.waitForSelector('body[data-ready]');
    const files = [
      { name: 'club.json', text: JSON.stringify({ name: 'club', extends: 'reference', maximum: { value: 'sometimes', source: 'assumed' }, colour: 'blue' }) },
      { name: 'a-name.json', text: '"reference"' },
      { name: 'torn.json', text: '{"name": "torn", "extends": ' },
      { name: 'house.json', text: JSON.stringify({ name: 'house', extends: 'reference', maximum: { value: 'micro-move', source: 'assumed' } }) },
    ];
    // Dropped on the page, as a user drags files from a file manager.
    const before = await page.evaluate(() => Number(document.body.dataset.renders));
    await page.evaluate((fs) => {
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(new File([f.text], f.name, { type: 'application/json' }));
      document.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    await page.waitForFunction((n) => Number(document.body.dataset.renders) > n, before);
    const listed = await page.locator('#summary [data-not-playable]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-not-playable'), e.textContent])));
    expect(listed.club).toMatch(/^club: .*maximum\.value.*"sometimes".*colour/);
    expect(listed['a-name.json']).toMatch(/^a-name\.json: .*not a JSON object/);
    expect(listed['torn.json']).toMatch(/^torn\.json: not JSON/);
    expect(listed.house).toBeUndefined();
    // The shipped dialects that cannot read three dice are listed with their reason too.
    expect(listed['chess']).toMatch(/fen\.dice-count/);
    const panels = await readPanels(page);
    expect(panels.club.error).toMatch(/maximum/);
    expect(panels['a-name.json'].error).toMatch(/not a JSON object/);
    expect(panels.reference.moves).toHaveLength(12);
    expect(panels.house.moves).toHaveLength(12);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a replay report links each reproduction to the explorer beside it, with the position, roll and recorded turn filled in', async () => {
    const out = join(dir, 'run');
    const r = await runReplay({ sources: [join(root, 'corpora/samples/planted/reference.history.ndjson.gz')], dialects: ['reference', 'wikipedia'], out, jobs: 1, limit: 60 });
    expect(r.ok).toBe(true);
    const { page, problems, requests } = await watchedPage(browser);
    await page.goto(pathToFileURL(join(out, 'report.html')).href);
    const links = page.locator('a.explore');
    expect(await links.count()).toBeGreaterThan(0);
    expect(await links.count()).toBe(await page.locator('.example svg.board').count());
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    for (const href of hrefs) expect(href).toMatch(/^explorer\.html#dfen=/);
    await links.first().click();
    await page.waitForSelector('body[data-ready]');
    const judged: number[] = [];
    for (const href of hrefs) {
      await page.goto(pathToFileURL(join(out, 'explorer.html')).href + href.slice(href.indexOf('#')));
      await page.waitForSelector('body[data-ready]');
      const state = parseHash(new URL(page.url()).hash);
      expect(await page.locator('#dfen').inputValue()).toBe(state.dfen);
      const focused = page.locator('.panel.focus');
      expect(await focused.count()).toBe(1);
      const dialect = (await focused.getAttribute('data-dialect'))!;
      expect(['reference', 'wikipedia-two-dice']).toContain(dialect);
      // The page says what the report's `check` command says (exit 2: the dialect cannot read the position at all).
      const check = await runCli('check', '--dialect', dialect, '--dfen', state.dfen, '--turn', state.turn!.join(',') || 'pass', '--json');
      const panel = (await readPanels(page))[dialect];
      if (check.code === 2) expect([panel.verdict, panel.error !== null]).toEqual(['', true]);
      else expect(panel.verdict).toBe(JSON.parse(check.out).legal ? 'legal' : JSON.parse(check.out).rule);
      judged.push(check.code);
    }
    expect(judged).toContain(1);
    await page.screenshot({ path: join(dir, 'explorer-from-report.png') });
    expect(problems).toEqual([]);
    expect(new Set(requests.map((u) => u.replace(/#.*/, '').split('/').pop()))).toEqual(new Set(['report.html', 'explorer.html']));
    await page.close();
  });

  it('explore --serve: serves the page on 127.0.0.1 with a printed URL; the same answers, no request but the page', async () => {
    const child: ChildProcess = spawn(process.execPath, [BIN, 'explore', '--serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /^(http:\/\/127\.0\.0\.1:\d+\/)\n/m.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`explore --serve exited with ${code}`)));
      });
      const { page, problems, requests } = await watchedPage(browser);
      await page.goto(url + hash(`${START} PNB`));
      await page.waitForSelector('body[data-ready]');
      const panels = await readPanels(page);
      expect(panels.reference.moves).toEqual(JSON.parse((await runCli('moves', '--dialect', 'reference', '--dfen', `${START} PNB`, '--json')).out));
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const missing = await fetch(`${url}nothing-here`);
      expect(missing.status).toBe(404);
      const html = await (await fetch(url)).text();
      expect(html).toBe(await readFile(join(dir, 'site', 'index.html'), 'utf8'));
      await page.close();
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (c) => resolve(c))));
    expect(code).toBe(0);
  });
});

describe('explore usage', () => {
  it('needs --out or --serve; never overwrites a file it did not write', async () => {
    expect((await runCli('explore')).code).toBe(2);
    const dir = await mkdtemp(join(tmpdir(), 'dice-explore-out-'));
    try {
      await writeFile(join(dir, 'index.html'), '<p>mine</p>');
      const r = await runCli('explore', '--out', dir);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/not written by dice-dialects explore/);
      expect(await readFile(join(dir, 'index.html'), 'utf8')).toBe('<p>mine</p>');
      await rm(join(dir, 'index.html'));
      expect((await runCli('explore', '--out', dir)).code).toBe(0);
      // Extra dialect files become columns; a bad one is a usage error.
      const house = join(dir, 'house.json');
      await writeFile(house, JSON.stringify({ name: 'house', extends: 'reference', maximum: { value: 'none', source: 'assumed' } }));
      expect((await runCli('explore', '--out', dir, '--dialect', house)).code).toBe(0);
      expect(await readFile(join(dir, 'index.html'), 'utf8')).toContain('"name":"house"');
      await writeFile(house, '{"name": "house", "maximum": 3}');
      const bad = await runCli('explore', '--out', dir, '--dialect', house);
      expect([bad.code, bad.err.trim().split('\n').length]).toEqual([2, 1]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
