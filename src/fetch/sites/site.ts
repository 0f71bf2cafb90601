import type { Call, Client, Answer } from '../http.js';

export type Obj = Record<string, unknown>;

/** One game a listing named. */
export interface ListedRow {
  id: string;
  /** The row as the site sent it (kept in the manifest; dicechess.com rows become the history list). */
  row: Obj | null;
}

/** What a site's listing yields: a page of rows, or the failure that ended the listing. */
export type ListStep =
  | {
      kind: 'page';
      rows: ListedRow[];
      /**
       * The listing position to persist once every row of this page has an outcome.
       * Equal to the previous one when the page does not move it (a page re-listed
       * next time costs a request, a page skipped would cost games).
       */
      cursorAfter: Obj;
      /** The listing stopped on this page before its end (--since); nothing follows. */
      cut: boolean;
    }
  | { kind: 'error'; answer: Extract<Answer, { ok: false }>; what: string }
  | { kind: 'shape'; message: string }
  /** The listing does not move: a page brought no game it had not listed, however often it was asked for. */
  | { kind: 'stuck'; message: string };

export interface ListContext {
  client: Client;
  base: string;
  player: string;
  /** The cursor of the manifest (null on a first run). */
  cursor: Obj | null;
  /** Rows older than this (ms since the epoch) are not listed. */
  sinceMs: number | null;
  pageSize: number;
  signal: AbortSignal;
}

/** `refresh`: the game is whole but a later answer will hold more (a fairness reveal not public yet). */
export type GameVerdict = { kind: 'game'; refresh: string | null } | { kind: 'unavailable'; reason: string } | { kind: 'invalid'; reason: string };

export interface Site {
  name: 'fortemate' | 'dicechess-com';
  /** The public API base the docs give (docs/formats.md#site-apis). */
  defaultBase: string;
  /** The environment variable holding the user's login token, when the site needs one. */
  tokenEnv: string | null;
  /** Whether listing rows are kept beside the games as a dicechess.com history list. */
  historyList: boolean;
  list(ctx: ListContext): AsyncGenerator<ListStep>;
  /** How to ask for one game; null when the id cannot be put in the URL without changing its path (`.`, `..`). */
  gameCall(base: string, id: string): Call | null;
  /** What a 2xx game answer holds. */
  judgeGame(body: Buffer): GameVerdict;
}

/** A JSON value from bytes, or null. */
export function parseBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A listing row's game id as a string, or null when it has none usable. */
export function rowId(row: unknown): string | null {
  if (!isObj(row)) return null;
  const id = row.gameId;
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return null;
}

/** A time as ms since the epoch: ISO text or a number of ms; null when unreadable. */
export function timeMs(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

/** A short description of a JSON value, for errors that say what came instead of what was expected. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'no JSON';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (isObj(v)) return `an object with keys ${Object.keys(v).slice(0, 8).join(', ') || '(none)'}`;
  return `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}

/** Times a page that brings no game the listing has not listed yet is asked for again, before the listing fails. */
export const STALE_RETRIES = 2;

/**
 * What one listing has seen. A server may answer a page with rows it sent already (a
 * repeated page, a cursor that does not move): such a page must not move the cursor,
 * or the games behind it would never be listed. It is asked for again, a few times,
 * and then the listing stops (`stuck`); a short or last page is the end, not a repeat.
 */
export class ListingGuard {
  private readonly seen = new Set<string>();

  /** Asks for one page until it brings a game not listed yet (or is the last); a stuck step when it never does. */
  async fresh<P>(ask: () => Promise<P | ListStep>, view: (p: P) => { rows: ListedRow[]; last: boolean }, where: string): Promise<P | ListStep> {
    for (let asked = 1; ; asked++) {
      const p = await ask();
      if (isStep(p)) return p;
      const { rows, last } = view(p);
      const fresh = rows.some((r) => !this.seen.has(r.id));
      if (fresh || rows.length === 0 || last) {
        for (const r of rows) this.seen.add(r.id);
        return p;
      }
      if (asked > STALE_RETRIES) {
        return { kind: 'stuck', message: `${where} brought only games already listed, ${asked} times: the listing does not move (the cursor stays before that page; games past it are not listed)` };
      }
    }
  }
}

const isStep = (p: unknown): p is ListStep => isObj(p) && typeof p.kind === 'string' && ['page', 'error', 'shape', 'stuck'].includes(p.kind);

/**
 * An id as one URL path segment, or null when none can carry it: `.` and `..` (and
 * their percent-encoded forms, which URL parsers treat alike) would be resolved away,
 * and the request would go to another path.
 */
export function pathSegment(id: string): string | null {
  const seg = encodeURIComponent(id);
  return /^(\.|%2e){1,2}$/i.test(seg) ? null : seg;
}

/**
 * What an answer held, for an error that says what came instead of what was expected:
 * the JSON's shape, or, when it is not JSON, its status, content type and first bytes
 * (escaped), e.g. an HTML login page.
 */
export function describeAnswer(answer: { status: number; body: Buffer; contentType?: string | null }, v: unknown): string {
  if (v !== undefined) return describeValue(v);
  const head = answer.body.subarray(0, 80).toString('utf8');
  return `no JSON: HTTP ${answer.status}, ${answer.contentType ? `content type ${answer.contentType}` : 'no content type'}, ${answer.body.length} bytes starting ${JSON.stringify(head)}${answer.body.length > 80 ? '…' : ''}`;
}
