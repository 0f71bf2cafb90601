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
  const run = new FetchRun(opts, progress);
  const onOuterAbort = (): void => run.halt('fetch.interrupted', 'interrupted');
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const ticker = opts.onProgress ? setInterval(() => opts.onProgress!({ ...progress, requests: run.client.requests, elapsedMs: Date.now() - t0 }), 250) : null;
  try {
    const refused = foreignFolder(prepared.manifest, opts);
    if (refused !== null) return result({ code: 'fetch.out', message: refused });
    const store = await run.open(prepared.manifest);
    await run.fetchAll();
    await run.close();
    return result(run.stopped, countsOf(store.manifest.games));
  } catch (e) {
    run.halt('fetch.write', `cannot write into ${opts.out}: ${(e as Error).message}`);
    await run.store?.flush().catch(() => undefined);
    return result(run.stopped, run.store ? countsOf(run.store.manifest.games) : null);
  } finally {
    if (ticker) clearInterval(ticker);
    opts.signal?.removeEventListener('abort', onOuterAbort);
    progress.requests = run.client.requests;
    opts.onProgress?.({ ...progress, elapsedMs: Date.now() - t0, done: true });
    await run.client.close();
    await prepared.release();
  }
}

/** Why the folder's earlier fetch is not this one's to continue (another site or player), or null. */
function foreignFolder(old: Manifest | null, opts: FetchOptions): string | null {
  if (old && old.site !== opts.site.name) return `--out ${opts.out} holds a fetch of ${old.site}, not ${opts.site.name}; name another folder`;
  if (old && opts.player !== null && old.player !== null && old.player !== opts.player) {
    return `--out ${opts.out} holds the games of player ${old.player}, not ${opts.player}; name another folder`;
  }
  return null;
}

/** A page of games: settled once all of them have an outcome, when the cursor may move past it. */
interface Page {
  done: Promise<unknown>;
  cursor: Obj | null;
}

/** The state of one fetch run, and its steps: open the folder, list and fetch, settle the pages, close. */
class FetchRun {
  readonly redactor: Redactor;
  readonly client: Client;
  private readonly controller = new AbortController();
  /** What fetching one game needs. */
  private readonly game: GameContext;
  stopped: FetchResult['stopped'] = null;
  store: ManifestStore | null = null;
  /** This run's entry in the manifest (set by `open`). */
  private entry!: RunEntry;
  /** The history list beside the games: rewritten when a listing row changes (rowsVersion moves past rowsWritten). */
  private rowsVersion = 0;
  private rowsWritten = -1;
  /** Games whose answer never came, in a row: past DOWN_AFTER the API is taken as down. */
  private down = 0;
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly seen = new Set<string>();
  private readonly retrying = new Set<string>();
  private budget: number;
  private readonly pages: Page[] = [];

  constructor(
    private readonly opts: FetchOptions,
    private readonly progress: FetchProgress,
  ) {
    this.redactor = new Redactor([opts.token, opts.cookie]);
    this.client = new Client({
      timeoutMs: opts.timeoutMs,
      deadlineMs: opts.client?.deadlineMs ?? opts.timeoutMs * 4,
      retries: opts.client?.retries ?? CLIENT_DEFAULTS.retries,
      maxBytes: opts.client?.maxBytes ?? CLIENT_DEFAULTS.maxBytes,
      backoffMs: opts.client?.backoffMs ?? CLIENT_DEFAULTS.backoffMs,
      maxRetryAfterMs: opts.client?.maxRetryAfterMs ?? CLIENT_DEFAULTS.maxRetryAfterMs,
      rate: opts.rate,
      headers: { ...(opts.token === null ? {} : { authorization: opts.token }), ...(opts.cookie ? { cookie: opts.cookie } : {}) },
      redactor: this.redactor,
      userAgent: opts.tool,
    });
    this.game = { site: opts.site, base: opts.base, out: opts.out, client: this.client, redactor: this.redactor, signal: this.controller.signal };
    this.limit = pLimit(Math.max(1, opts.concurrency));
    this.budget = opts.limit ?? Infinity;
  }

  /** Stops the run (the first reason stays) and aborts whatever is under way. */
  halt(code: StopCode, message: string): void {
    this.stopped ??= { code, message: this.redactor.text(message) };
    this.controller.abort();
  }

  /** The manifest (the folder's, or a new one) with this run's entry, the games folder cleaned of stale temporaries, written once. */
  async open(old: Manifest | null): Promise<ManifestStore> {
    const { opts } = this;
    const { site } = opts;
    const now = new Date().toISOString();
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
    manifest.baseUrl = this.redactor.text(opts.base);
    manifest.player ??= opts.player;
    if (site.historyList) manifest.historyList = HISTORY_LIST_NAME;
    await mkdir(path.join(opts.out, GAMES_DIR), { recursive: true });
    await removeStaleTemps(opts.out);
    await removeStaleTemps(path.join(opts.out, GAMES_DIR));
    this.entry = { startedAt: now, finishedAt: null, completed: false, pages: 0, fetched: 0, unavailable: 0, failed: 0, skipped: 0, requests: 0 };
    manifest.runs = [...manifest.runs.slice(-19), this.entry];
    const store = new ManifestStore(opts.out, manifest, site.historyList ? (m) => this.writeHistory(m) : null);
    this.store = store;
    await store.flush(); // the folder is a fetch folder from here on
    return store;
  }

  /** The history list beside the games: every listing row, written when rows changed since the last time. */
  private async writeHistory(m: Manifest): Promise<void> {
    if (this.rowsVersion === this.rowsWritten) return;
    const version = this.rowsVersion;
    const rows = m.games.filter((g) => g.listing !== null).map((g) => JSON.stringify(g.listing));
    await writeAtomic(path.join(this.opts.out, HISTORY_LIST_NAME), rows.length === 0 ? '[]\n' : `[\n${rows.join(',\n')}\n]\n`);
    this.rowsWritten = version;
  }

  /** The games named by --ids, or the listing's, and the ones earlier runs left unsettled; every page settled. */
  async fetchAll(): Promise<void> {
    const manifest = this.store!.manifest;
    const retries = manifest.games.filter((g) => !this.settled(g)).map((g) => ({ id: g.id, row: g.listing }));
    for (const r of retries) this.retrying.add(r.id);
    if (this.opts.ids !== null) this.pages.push({ done: Promise.all(this.schedule([...this.opts.ids, ...retries]).tasks), cursor: null });
    else await this.list(retries);
    while (this.pages.length > 0) await this.settleOne();
  }

  /** This run's entry finished, and the manifest written. */
  async close(): Promise<void> {
    this.entry.requests = this.client.requests;
    this.entry.finishedAt = new Date().toISOString();
    this.entry.completed = this.stopped === null;
    await this.store!.flush();
  }

  /** Lists the player's games page by page, fetching each page's games while listing at most two pages ahead. */
  private async list(retries: ListedRow[]): Promise<void> {
    const { opts, progress, redactor, controller } = this;
    const s = this.store!;
    const manifest = s.manifest;
    const steps = opts.site.list({ client: this.client, base: opts.base, player: opts.player!, cursor: manifest.cursor, sinceMs: opts.sinceMs, pageSize: opts.pageSize, signal: controller.signal });
    let first = true;
    const listed = new Set<string>();
    let fullest = 0;
    // A listing that cannot go on stops listing only: the games listed so far are still fetched, and their pages settle.
    const incomplete = (reason: string): void => {
      this.stopped ??= { code: 'fetch.listing', message: redactor.text(reason) };
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
        if (a.status === 401 || a.status === 403) this.halt('fetch.credentials', credentialsMessage(opts.site, a));
        else if (a.status === null) this.halt('fetch.unreachable', `${first ? 'the API cannot be reached' : 'the API stopped answering'}: ${a.message}`);
        else incomplete(`${step.what} could not be listed: ${a.message}`);
        if (manifest.listing === null) manifest.listing = { complete: false, reason: redactor.text(a.message) };
        break;
      }
      progress.pages = ++this.entry.pages;
      for (const r of step.rows) listed.add(r.id);
      fullest = Math.max(fullest, step.rows.length);
      if (this.entry.pages > pageBound(listed.size, fullest)) {
        incomplete(`the listing asked for ${this.entry.pages} pages for ${listed.size} games (at most ${PAGE_SLACK} + 2 per page of games): the server keeps saying there is more but sends few new games; stopped`);
        break;
      }
      if (first) {
        first = false;
        if (retries.length > 0) this.pages.push({ done: Promise.all(this.schedule(retries).tasks), cursor: null });
      }
      const { tasks, cut } = this.schedule(step.rows);
      // A page cut short by --limit keeps the cursor before it: its rest is listed next run.
      this.pages.push({ done: Promise.all(tasks), cursor: cut ? null : step.cursorAfter });
      if (cut || step.cut) break;
      // List at most two pages ahead of the fetching.
      while (this.pages.length > 2) await this.settleOne();
    }
    await steps.return(undefined);
    const halted = this.stopped as FetchResult['stopped'];
    if (halted === null && !controller.signal.aborted) manifest.listing = { complete: true, reason: null };
    else if (manifest.listing === null) manifest.listing = { complete: false, reason: halted?.message ?? 'interrupted' };
  }

  /** Pages settle in order: the cursor moves past a page once all its games have an outcome. */
  private async settleOne(): Promise<void> {
    const p = this.pages.shift()!;
    await p.done;
    if (p.cursor !== null && !this.controller.signal.aborted) this.store!.setCursor(p.cursor);
  }

  /** What needs a fetch: never seen, failed, fetched but its file gone or due a refresh, unavailable when asked to retry those. */
  private settled(g: GameEntry): boolean {
    return (g.status === 'fetched' && g.refresh === null && g.file !== null && existsSync(path.join(this.opts.out, g.file))) || (g.status === 'unavailable' && !this.opts.retryUnavailable);
  }

  /** Queues a fetch for each row not seen yet and not settled, within --limit (`cut`: the budget ran out on this page). */
  private schedule(rows: ListedRow[]): { tasks: Promise<void>[]; cut: boolean } {
    const s = this.store!;
    const tasks: Promise<void>[] = [];
    for (const r of rows) {
      if (this.seen.has(r.id)) {
        if (!this.retrying.delete(r.id)) this.progress.duplicates++; // a retry's first listing is no repeat
        continue;
      }
      const prior = s.get(r.id);
      if (prior && this.settled(prior)) {
        this.seen.add(r.id);
        this.entry.skipped = ++this.progress.skipped;
        const row = this.clean(r.row);
        if (row !== null && JSON.stringify(row) !== JSON.stringify(prior.listing)) {
          this.rowsVersion++;
          s.put({ ...prior, listing: row }); // a fresher row (a result known only later)
        }
        continue;
      }
      if (this.budget <= 0) return { tasks, cut: true };
      this.seen.add(r.id);
      this.budget--;
      tasks.push(this.limit(() => this.fetchOne(r, prior)));
    }
    return { tasks, cut: false };
  }

  /** A listing row with any secret in it redacted. */
  private clean(row: Obj | null): Obj | null {
    if (row === null) return null;
    const text = JSON.stringify(row);
    return this.redactor.leaks(text) ? (JSON.parse(this.redactor.text(text)) as Obj) : row;
  }

  /** Fetches and stores one game and records its outcome; never rejects. */
  private async fetchOne(r: ListedRow, prior: GameEntry | undefined): Promise<void> {
    const { controller, redactor, opts } = this;
    if (controller.signal.aborted) return;
    const listing = this.clean(r.row) ?? prior?.listing ?? null;
    let outcome: GameOutcome;
    try {
      outcome = await fetchGame(this.game, r, listing, prior);
    } catch (e) {
      // A task never rejects (pages wait in a queue, and an unawaited rejection would end the process).
      const error = { code: 'fetch.io', message: redactor.text(String((e as Error)?.message ?? e)) };
      outcome = { kind: 'entry', entry: { id: r.id, listing, attempts: prior?.attempts ?? 0, file: null, bytes: null, sha256: null, reason: null, httpStatus: null, refresh: null, status: 'failed', fetchedAt: new Date().toISOString(), error } };
    }
    if (outcome.kind === 'refused') return this.halt('fetch.credentials', credentialsMessage(opts.site, outcome.answer));
    if (outcome.kind === 'write-error') return this.halt('fetch.write', outcome.message);
    if (outcome.kind === 'aborted' || controller.signal.aborted) return;
    const e = outcome.entry;
    this.put(e);
    this.down = e.status === 'failed' && e.httpStatus === null && e.error?.code.startsWith('http.') ? this.down + 1 : 0;
    if (this.down >= DOWN_AFTER) this.halt('fetch.unreachable', `the API stopped answering: ${DOWN_AFTER} games in a row got no answer (last: ${e.error?.message})`);
  }

  /** Records a game's outcome in the manifest and the counts. */
  private put(e: GameEntry): void {
    const s = this.store!;
    const before = s.get(e.id);
    if (e.listing !== null && JSON.stringify(before?.listing ?? null) !== JSON.stringify(e.listing)) this.rowsVersion++;
    s.put(e);
    if (e.status === 'fetched') this.entry.fetched = ++this.progress.fetched;
    else if (e.status === 'unavailable') this.entry.unavailable = ++this.progress.unavailable;
    else this.entry.failed = ++this.progress.failed;
  }
}

function credentialsMessage(site: Site, a: Extract<Answer, { ok: false }>): string {
  const how = site.tokenEnv ? `check the login token (${site.tokenEnv} or --token-env)` : 'the API refused access';
  return `${a.message}: the credentials were refused; ${how}. Nothing more was fetched`;
}
