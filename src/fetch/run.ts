import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { removeStaleTemps, writeAtomic } from '../output/atomic-file.js';
import { type GameContext, type GameOutcome, fetchGame } from './fetch-game.js';
import { type Answer, CLIENT_DEFAULTS, Client, type ClientOptions } from './http.js';
import { GAMES_DIR, HISTORY_LIST_NAME, MANIFEST_FORMAT, type GameEntry, type Manifest, ManifestStore, type RunEntry, countsOf } from './manifest.js';
import { prepareOut } from './out-folder.js';
import { Redactor } from './redact.js';
import type { ListedRow, Obj, Site } from './sites/site.js';

export interface FetchOptions {
  site: Site;
  base: string;
  player: string | null;
  /** Games named by --ids instead of a listing. */
  ids: ListedRow[] | null;
  out: string;
  sinceMs: number | null;
  /** Games fetched at most in this run (skipped ones do not count). */
  limit: number | null;
  concurrency: number;
  rate: number;
  timeoutMs: number;
  token: string | null;
  /** A Cookie header value (dicechess.com may want one beside the token: unverified); a secret like the token. */
  cookie?: string | null;
  pageSize: number;
  retryUnavailable: boolean;
  tool: string;
  /** Client knobs for tests (retries, backoff, size cap). */
  client?: Partial<Pick<ClientOptions, 'retries' | 'backoffMs' | 'maxBytes' | 'maxRetryAfterMs' | 'deadlineMs'>>;
  onProgress?: (p: FetchProgress) => void;
  signal?: AbortSignal;
}

export interface FetchProgress {
  pages: number;
  fetched: number;
  skipped: number;
  unavailable: number;
  failed: number;
  /** Rows seen again in the same run (a game listed twice). */
  duplicates: number;
  requests: number;
  elapsedMs: number;
  done: boolean;
}

export type StopCode = 'fetch.out' | 'fetch.credentials' | 'fetch.unreachable' | 'fetch.listing' | 'fetch.write' | 'fetch.interrupted';

export interface FetchResult {
  /** null when the run completed. */
  stopped: { code: StopCode; message: string } | null;
  progress: FetchProgress;
  counts: Manifest['counts'] | null;
}

/** Consecutive games whose answer never came before the API is taken as down. */
const DOWN_AFTER = 6;

/**
 * Listing pages one run asks for at most: PAGE_SLACK, plus twice the pages its new
 * games would fill at the fullest page seen. An honest listing needs about one page
 * per page of games; a server that keeps saying "more" while it sends little or
 * nothing new is stopped here instead of paging for ever.
 */
export const PAGE_SLACK = 10;
export const pageBound = (newGames: number, fullestPage: number): number => PAGE_SLACK + 2 * Math.ceil(newGames / Math.max(1, fullestPage));

/**
 * One fetch run: list (or take --ids), fetch every game not already fetched at a
 * polite pace, store each atomically, record every outcome in the manifest, and move
 * the listing cursor only past pages whose games all have one.
 */
export async function runFetch(opts: FetchOptions): Promise<FetchResult> {
  const t0 = Date.now();
  const progress: FetchProgress = { pages: 0, fetched: 0, skipped: 0, unavailable: 0, failed: 0, duplicates: 0, requests: 0, elapsedMs: 0, done: false };
  const result = (stopped: FetchResult['stopped'], counts: Manifest['counts'] | null = null): FetchResult => {
    progress.elapsedMs = Date.now() - t0;
    progress.done = true;
    return { stopped, progress, counts };
  };
  const prepared = await prepareOut(opts.out);
  if (!prepared.ok) return result({ code: 'fetch.out', message: prepared.message });
  const { site } = opts;
  const redactor = new Redactor([opts.token, opts.cookie]);
  const client = new Client({
    timeoutMs: opts.timeoutMs,
    deadlineMs: opts.client?.deadlineMs ?? opts.timeoutMs * 4,
    retries: opts.client?.retries ?? CLIENT_DEFAULTS.retries,
    maxBytes: opts.client?.maxBytes ?? CLIENT_DEFAULTS.maxBytes,
    backoffMs: opts.client?.backoffMs ?? CLIENT_DEFAULTS.backoffMs,
    maxRetryAfterMs: opts.client?.maxRetryAfterMs ?? CLIENT_DEFAULTS.maxRetryAfterMs,
    rate: opts.rate,
    headers: { ...(opts.token === null ? {} : { authorization: opts.token }), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
    redactor,
    userAgent: opts.tool,
  });
  const controller = new AbortController();
  const onOuterAbort = (): void => halt('fetch.interrupted', 'interrupted');
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  let stopped: FetchResult['stopped'] = null;
  const halt = (code: StopCode, message: string): void => {
    stopped ??= { code, message: redactor.text(message) };
    controller.abort();
  };
  const ticker = opts.onProgress ? setInterval(() => opts.onProgress!({ ...progress, requests: client.requests, elapsedMs: Date.now() - t0 }), 250) : null;
  let store: ManifestStore | null = null;
  try {
    const now = new Date().toISOString();
    const old = prepared.manifest;
    if (old && old.site !== site.name) return result({ code: 'fetch.out', message: `--out ${opts.out} holds a fetch of ${old.site}, not ${site.name}; name another folder` });
    if (old && opts.player !== null && old.player !== null && old.player !== opts.player) {
      return result({ code: 'fetch.out', message: `--out ${opts.out} holds the games of player ${old.player}, not ${opts.player}; name another folder` });
    }
    const manifest: Manifest = old ?? {
      format: MANIFEST_FORMAT,
      tool: opts.tool,
      site: site.name,
      baseUrl: '',
      player: null,
      createdAt: now,
      updatedAt: now,
      cursor: null,
      listing: null,
      counts: countsOf([]),
      historyList: null,
      runs: [],
      games: [],
    };
    manifest.tool = opts.tool;
    manifest.baseUrl = redactor.text(opts.base);
    manifest.player ??= opts.player;
    if (site.historyList) manifest.historyList = HISTORY_LIST_NAME;
    await mkdir(path.join(opts.out, GAMES_DIR), { recursive: true });
    await removeStaleTemps(opts.out);
    await removeStaleTemps(path.join(opts.out, GAMES_DIR));
    const run: RunEntry = { startedAt: now, finishedAt: null, completed: false, pages: 0, fetched: 0, unavailable: 0, failed: 0, skipped: 0, requests: 0 };
    manifest.runs = [...manifest.runs.slice(-19), run];

    // The history list beside the games: every listing row, rewritten when rows change.
    let rowsVersion = 0;
    let rowsWritten = -1;
    const writeHistory = async (m: Manifest): Promise<void> => {
      if (rowsVersion === rowsWritten) return;
      const version = rowsVersion;
      const rows = m.games.filter((g) => g.listing !== null).map((g) => JSON.stringify(g.listing));
      await writeAtomic(path.join(opts.out, HISTORY_LIST_NAME), rows.length === 0 ? '[]\n' : `[\n${rows.join(',\n')}\n]\n`);
      rowsWritten = version;
    };
    store = new ManifestStore(opts.out, manifest, site.historyList ? writeHistory : null);
    const s = store;
    await s.flush(); // the folder is a fetch folder from here on

    const clean = (row: Obj | null): Obj | null => {
      if (row === null) return null;
      const text = JSON.stringify(row);
      return redactor.leaks(text) ? (JSON.parse(redactor.text(text)) as Obj) : row;
    };
    const put = (e: GameEntry): void => {
      const before = s.get(e.id);
      if (e.listing !== null && JSON.stringify(before?.listing ?? null) !== JSON.stringify(e.listing)) rowsVersion++;
      s.put(e);
      if (e.status === 'fetched') run.fetched = ++progress.fetched;
      else if (e.status === 'unavailable') run.unavailable = ++progress.unavailable;
      else run.failed = ++progress.failed;
    };

    // Games whose answer never came, in a row: past DOWN_AFTER the API is taken as down.
    let down = 0;
    const game: GameContext = { site, base: opts.base, out: opts.out, client, redactor, signal: controller.signal };
    const fetchOne = async (r: ListedRow, prior: GameEntry | undefined): Promise<void> => {
      if (controller.signal.aborted) return;
      const listing = clean(r.row) ?? prior?.listing ?? null;
      let outcome: GameOutcome;
      try {
        outcome = await fetchGame(game, r, listing, prior);
      } catch (e) {
        // A task never rejects (pages wait in a queue, and an unawaited rejection would end the process).
        const error = { code: 'fetch.io', message: redactor.text(String((e as Error)?.message ?? e)) };
        outcome = { kind: 'entry', entry: { id: r.id, listing, attempts: prior?.attempts ?? 0, file: null, bytes: null, sha256: null, reason: null, httpStatus: null, refresh: null, status: 'failed', fetchedAt: new Date().toISOString(), error } };
      }
      if (outcome.kind === 'refused') return halt('fetch.credentials', credentialsMessage(site, outcome.answer));
      if (outcome.kind === 'write-error') return halt('fetch.write', outcome.message);
      if (outcome.kind === 'aborted' || controller.signal.aborted) return;
      const e = outcome.entry;
      put(e);
      down = e.status === 'failed' && e.httpStatus === null && e.error?.code.startsWith('http.') ? down + 1 : 0;
      if (down >= DOWN_AFTER) halt('fetch.unreachable', `the API stopped answering: ${DOWN_AFTER} games in a row got no answer (last: ${e.error?.message})`);
    };

    // What needs a fetch: never seen, failed, fetched but its file gone or due a refresh, unavailable when asked to retry those.
    const settled = (g: GameEntry): boolean =>
      (g.status === 'fetched' && g.refresh === null && g.file !== null && existsSync(path.join(opts.out, g.file))) || (g.status === 'unavailable' && !opts.retryUnavailable);
    const limit = pLimit(Math.max(1, opts.concurrency));
    const seen = new Set<string>();
    const retrying = new Set<string>();
    let budget = opts.limit ?? Infinity;
    const schedule = (rows: ListedRow[]): { tasks: Promise<void>[]; cut: boolean } => {
      const tasks: Promise<void>[] = [];
      for (const r of rows) {
        if (seen.has(r.id)) {
          if (!retrying.delete(r.id)) progress.duplicates++; // a retry's first listing is no repeat
          continue;
        }
        const prior = s.get(r.id);
        if (prior && settled(prior)) {
          seen.add(r.id);
          run.skipped = ++progress.skipped;
          const row = clean(r.row);
          if (row !== null && JSON.stringify(row) !== JSON.stringify(prior.listing)) {
            rowsVersion++;
            s.put({ ...prior, listing: row }); // a fresher row (a result known only later)
          }
          continue;
        }
        if (budget <= 0) return { tasks, cut: true };
        seen.add(r.id);
        budget--;
        tasks.push(limit(() => fetchOne(r, prior)));
      }
      return { tasks, cut: false };
    };

    // Pages settle in order: the cursor moves past a page once all its games have an outcome.
    const pages: Array<{ done: Promise<unknown>; cursor: Obj | null }> = [];
    const settleOne = async (): Promise<void> => {
      const p = pages.shift()!;
      await p.done;
      if (p.cursor !== null && !controller.signal.aborted) s.setCursor(p.cursor);
    };
    const retries = manifest.games.filter((g) => !settled(g)).map((g) => ({ id: g.id, row: g.listing }));
    for (const r of retries) retrying.add(r.id);

    if (opts.ids !== null) {
      pages.push({ done: Promise.all(schedule([...opts.ids, ...retries]).tasks), cursor: null });
    } else {
      const player = opts.player!;
      const steps = site.list({ client, base: opts.base, player, cursor: manifest.cursor, sinceMs: opts.sinceMs, pageSize: opts.pageSize, signal: controller.signal });
      let first = true;
      const listed = new Set<string>();
      let fullest = 0;
      // A listing that cannot go on stops listing only: the games listed so far are still fetched, and their pages settle.
      const incomplete = (reason: string): void => {
        stopped ??= { code: 'fetch.listing', message: redactor.text(reason) };
        manifest.listing = { complete: false, reason: redactor.text(reason) };
        s.touch();
      };
      manifest.listing = null;
      for await (const step of steps) {
        if (controller.signal.aborted) break;
        if (step.kind === 'shape' || step.kind === 'stuck') {
          incomplete(step.kind === 'shape' ? `the listing is not what was expected: ${step.message}` : step.message);
          break;
        }
        if (step.kind === 'error') {
          const a = step.answer;
          if (a.code === 'http.aborted') break;
          if (a.status === 401 || a.status === 403) halt('fetch.credentials', credentialsMessage(site, a));
          else if (a.status === null) halt('fetch.unreachable', `${first ? 'the API cannot be reached' : 'the API stopped answering'}: ${a.message}`);
          else incomplete(`${step.what} could not be listed: ${a.message}`);
          if (manifest.listing === null) manifest.listing = { complete: false, reason: redactor.text(a.message) };
          break;
        }
        progress.pages = ++run.pages;
        for (const r of step.rows) listed.add(r.id);
        fullest = Math.max(fullest, step.rows.length);
        if (run.pages > pageBound(listed.size, fullest)) {
          incomplete(`the listing asked for ${run.pages} pages for ${listed.size} games (at most ${PAGE_SLACK} + 2 per page of games): the server keeps saying there is more but sends few new games; stopped`);
          break;
        }
        if (first) {
          first = false;
          if (retries.length > 0) pages.push({ done: Promise.all(schedule(retries).tasks), cursor: null });
        }
        const { tasks, cut } = schedule(step.rows);
        // A page cut short by --limit keeps the cursor before it: its rest is listed next run.
        pages.push({ done: Promise.all(tasks), cursor: cut ? null : step.cursorAfter });
        if (cut || step.cut) break;
        // List at most two pages ahead of the fetching.
        while (pages.length > 2) await settleOne();
      }
      await steps.return(undefined);
      const halted = stopped as FetchResult['stopped'];
      if (halted === null && !controller.signal.aborted) manifest.listing = { complete: true, reason: null };
      else if (manifest.listing === null) manifest.listing = { complete: false, reason: halted?.message ?? 'interrupted' };
    }
    while (pages.length > 0) await settleOne();
    run.requests = client.requests;
    run.finishedAt = new Date().toISOString();
    run.completed = stopped === null;
    await s.flush();
    return result(stopped, countsOf(manifest.games));
  } catch (e) {
    halt('fetch.write', `cannot write into ${opts.out}: ${(e as Error).message}`);
    await store?.flush().catch(() => undefined);
    return result(stopped, store ? countsOf(store.manifest.games) : null);
  } finally {
    if (ticker) clearInterval(ticker);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    progress.requests = client.requests;
    opts.onProgress?.({ ...progress, elapsedMs: Date.now() - t0, done: true });
    await client.close();
    await prepared.release();
  }
}

function credentialsMessage(site: Site, a: Extract<Answer, { ok: false }>): string {
  const how = site.tokenEnv ? `check the login token (${site.tokenEnv} or --token-env)` : 'the API refused access';
  return `${a.message}: the credentials were refused; ${how}. Nothing more was fetched`;
}
