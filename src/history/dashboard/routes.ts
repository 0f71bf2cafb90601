import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunFolder } from '../../output/output-path.js';
import { canonicalJson } from '../../report/sorted.js';
import { HistoryError, httpStatusOf } from '../errors.js';
import { diffRecorded } from '../queries/diff.js';
import { gameHistory } from '../queries/game.js';
import { resolveRun } from '../queries/run-ref.js';
import { getRun, listRuns } from '../queries/runs.js';
import { search } from '../queries/search.js';
import { trend } from '../queries/trend.js';
import type { Store } from '../store-types.js';
import { serverLinks, type Links } from './layout.js';
import { diffPage, errorPage, gamePage, gamePageSlice, runPage, runsPage, searchPage, trendPage } from './pages.js';

export interface Answer {
  status: number;
  type: string;
  body: string | Buffer;
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
/** The files of a run folder the dashboard shows (read from the folder the run was recorded from). */
const RUN_FILES: Record<string, string> = { 'report.html': HTML, 'explorer.html': HTML, 'report.md': 'text/markdown; charset=utf-8', 'summary.json': JSON_TYPE };

const html = (body: string, status = 200): Answer => ({ status, type: HTML, body });
const json = (value: unknown, status = 200): Answer => ({ status, type: JSON_TYPE, body: canonicalJson(value) });

export const folderThere = (folder: string | null): boolean => folder !== null && isRunFolder(folder);

/** The two runs a diff page compares: as asked, else the newest two. */
async function diffRuns(store: Store, a: string | null, b: string | null): Promise<[number, number]> {
  const newest = await store.all('SELECT run FROM runs WHERE outcome <> ? ORDER BY run DESC LIMIT 2', ['failed']);
  if (newest.length === 0) throw new HistoryError('history-unknown-run', 'no runs recorded yet: nothing to compare');
  const runB = b ? await resolveRun(store, b) : Number(newest[0].run);
  const runA = a ? await resolveRun(store, a) : Number((newest[1] ?? newest[0]).run);
  return [runA, runB];
}

/** `--set` overrides per (run, dialect) of a game page's runs, for the explorer links (none: no entry). */
async function overridesOf(store: Store, runs: number[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (runs.length === 0) return out;
  const rows = await store.all('SELECT run, dialect, overrides FROM run_dialects WHERE run >= ? AND run <= ? AND overrides IS NOT NULL', [Math.min(...runs), Math.max(...runs)]);
  for (const r of rows) out.set(`${r.run}\u0000${r.dialect}`, String(r.overrides));
  return out;
}

/**
 * Every page and JSON route of the dashboard: one function per URL, the same query code as
 * the `history` subcommands. Unknown routes and ids answer 404, bad queries 400.
 */
export async function route(store: Store, method: string, rawUrl: string, links: Links = serverLinks): Promise<Answer> {
  const url = new URL(rawUrl, 'http://dashboard.invalid');
  const p = url.searchParams;
  const get = (k: string) => p.get(k)?.trim() || undefined;
  const path = url.pathname;
  const api = path.startsWith('/api/');
  const fail = (status: number, message: string): Answer => (api ? json({ error: message }, status) : html(errorPage(links, status, message), status));
  if (method !== 'GET' && method !== 'HEAD') return { ...fail(405, `${method} is not allowed: the dashboard is read-only`) };
  const name = api ? path.slice(4) : path;
  try {
    if (name === '/' || name === '/runs') {
      const filter = { dialect: get('dialect'), source: get('source'), since: get('since'), until: get('until'), toolVersion: get('tool') };
      const runs = await listRuns(store, filter);
      return api ? json({ runs }) : html(runsPage(links, runs, { ...filter, tool: filter.toolVersion }));
    }
    if (name === '/trend') {
      const t = await trend(store, { dialect: get('dialect'), rule: get('rule'), last: get('last') ? Number(get('last')) : undefined });
      return api ? json(t) : html(trendPage(links, t, { dialect: get('dialect'), rule: get('rule') }));
    }
    const runMatch = /^\/runs\/([^/]+)(?:\/([^/]+))?$/.exec(name);
    if (runMatch) {
      const run = await resolveRun(store, decodeURIComponent(runMatch[1]));
      const r = await getRun(store, run);
      const there = folderThere(r.folder);
      const file = runMatch[2];
      if (file !== undefined) {
        if (api || !(file in RUN_FILES)) return fail(404, `no page ${path}`);
        if (!there || !existsSync(join(r.folder!, file))) return fail(404, `run #${run}'s folder ${r.folder} is no longer there (or has no ${file})`);
        return { status: 200, type: RUN_FILES[file], body: readFileSync(join(r.folder!, file)) };
      }
      if (api) return json(r);
      const prev = await store.all("SELECT max(run) AS run FROM runs WHERE run < ? AND outcome <> 'failed'", [run]);
      return html(runPage(links, r, there, prev[0]?.run === null || prev[0]?.run === undefined ? null : Number(prev[0].run)));
    }
    if (name === '/game') {
      const id = p.get('id');
      if (id === null || id === '') return fail(400, 'name a game: /game?id=ID');
      const g = await gameHistory(store, id, { dialect: get('dialect') });
      if (api) return json(g);
      const page = Number(get('page') ?? 1);
      if (!Number.isInteger(page) || page < 1) return fail(400, `page must be a whole number ≥ 1, not "${get('page')}"`);
      const runs = [...new Set(gamePageSlice(g, page).shown.dialects.flatMap((d) => d.transitions.map((t) => t.after.run)))];
      const folders = new Map<number, boolean>();
      // The folders of the page's runs only (each is looked at on disk).
      if (runs.length) for (const r of await store.all(`SELECT run, folder FROM runs WHERE folder IS NOT NULL AND run IN (${runs.map(() => '?').join(', ')})`, runs)) folders.set(Number(r.run), folderThere(String(r.folder)));
      return html(gamePage(links, g, folders, await overridesOf(store, runs), page, get('dialect')));
    }
    if (name === '/diff') {
      const [a, b] = await diffRuns(store, get('a') ?? null, get('b') ?? null);
      const d = await diffRecorded(store, a, b);
      return api ? json({ a, b, diff: d }) : html(diffPage(links, await getRun(store, a), await getRun(store, b), d));
    }
    if (name === '/search') {
      const q = p.get('q') ?? '';
      if (q.trim() === '') return api ? fail(400, 'name a query: /api/search?q=…') : html(searchPage(links, '', null, null));
      try {
        const answer = await search(store, q, { limit: get('limit') ? Number(get('limit')) : undefined });
        return api ? json(answer) : html(searchPage(links, q, answer, null));
      } catch (error) {
        if (error instanceof HistoryError && !api) return html(searchPage(links, q, null, error.message), httpStatusOf(error.code));
        throw error;
      }
    }
    return fail(404, `no page ${path}`);
  } catch (error) {
    if (error instanceof HistoryError) return fail(httpStatusOf(error.code), error.message);
    throw error;
  }
}
