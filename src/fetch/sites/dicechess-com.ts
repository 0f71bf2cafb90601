import type { Call } from '../http.js';
import { type GameVerdict, ListingGuard, type ListContext, type ListStep, type ListedRow, type Obj, type Site, describeAnswer, describeValue, isObj, parseBody, rowId, timeMs } from './site.js';

/**
 * dicechess.com (docs/formats.md#dicechess-com-api): `POST /api/player/history`, newest first, paged by
 * offset (`first` += rows received, the end is a short or empty page; see lastPage); the envelope
 * is unverified, so a top-level array of rows or an object's first array-valued
 * property is accepted. `GET /api/game-move-history?gameId=` is a state map (docs/formats.md#state-maps).
 * Offsets shift when new games arrive, so the cursor keeps `offset` (rows of the
 * contiguous span listed from the top), `exhausted`, and `anchors`: the top ids of
 * that span. A later run lists from the top until it meets an anchor, which says how
 * many games are new and by how much `offset` moved.
 */
interface Cursor {
  offset: number;
  exhausted: boolean;
  anchors: string[];
  /** The most rows one page has held: the server's page size, which may be below the size asked for. */
  pageRows: number;
}

const ANCHORS = 10;
/** Rows re-asked for when continuing an older listing (a deleted game would shift offsets back). */
const OVERLAP = 5;

const cursorOf = (c: Obj | null): Cursor => ({
  offset: typeof c?.offset === 'number' && c.offset >= 0 ? c.offset : 0,
  exhausted: c?.exhausted === true,
  anchors: Array.isArray(c?.anchors) ? c.anchors.filter((a): a is string => typeof a === 'string') : [],
  pageRows: typeof c?.pageRows === 'number' ? c.pageRows : 0,
});

/**
 * The last page: an empty one, or one shorter than the fullest page seen. A server
 * that caps pages below the size asked for would otherwise end the listing after its
 * first page; the price is one empty page for a player with fewer games than a page.
 */
function lastPage(state: Cursor, rows: number): boolean {
  state.pageRows = Math.max(state.pageRows, rows);
  return rows === 0 || rows < state.pageRows;
}

function requestBody(player: string, first: number, pageSize: number): Obj {
  return { filters: { PLAYER_ID: player, START_DATE: '1' }, allowed_times: [], first, isAsc: false, pageSize, sortColumn: 'DATE', startBets: [] };
}

/** The rows of an answer whose envelope is not documented. */
export function rowsOf(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (isObj(v)) for (const x of Object.values(v)) if (Array.isArray(x)) return x;
  return null;
}

async function page(ctx: ListContext, first: number): Promise<ListedRow[] | ListStep> {
  const url = `${ctx.base}/api/player/history`;
  const answer = await ctx.client.call({ method: 'POST', url, json: requestBody(ctx.player, first, ctx.pageSize) }, ctx.signal);
  if (!answer.ok) return { kind: 'error', answer, what: 'the player history' };
  const v = parseBody(answer.body);
  const rows = rowsOf(v);
  if (rows === null) return { kind: 'shape', message: `POST ${url}: expected an array of history rows (or an object holding one), got ${describeAnswer(answer, v)}` };
  const out: ListedRow[] = [];
  for (const r of rows) {
    const id = rowId(r);
    if (id === null) return { kind: 'shape', message: `POST ${url}: a row has no "gameId" (expected rows of {gameId, color, whiteId, blackId, …, startTime}, got ${describeValue(r)})` };
    out.push({ id, row: r as Obj });
  }
  return out;
}

async function* list(ctx: ListContext): AsyncGenerator<ListStep> {
  const state = cursorOf(ctx.cursor);
  const guard = new ListingGuard();
  // A page is the last when it is shorter than the fullest seen (lastPage), so a repeat of a full page is asked for again.
  const fresh = (first: number): Promise<ListedRow[] | ListStep> =>
    guard.fresh(() => page(ctx, first), (p) => ({ rows: p, last: p.length < Math.max(state.pageRows, 1) }), `POST ${ctx.base}/api/player/history with first=${first}`);
  const tooOld = (r: ListedRow): boolean => {
    const t = timeMs(r.row?.startTime);
    return ctx.sinceMs !== null && t !== null && t < ctx.sinceMs;
  };
  if (state.anchors.length > 0) {
    // New games on top: list until an anchor of the last span shows up.
    const anchors = state.anchors;
    let first = 0;
    let top: string[] | null = null;
    for (;;) {
      const p = await fresh(first);
      if (!Array.isArray(p)) return yield p;
      top ??= p.slice(0, ANCHORS).map((r) => r.id);
      const hit = p.findIndex((r) => anchors.includes(r.id));
      const since = p.findIndex(tooOld);
      if (since >= 0 && (hit < 0 || since < hit)) {
        yield { kind: 'page', rows: p.slice(0, since), cursorAfter: { ...state }, cut: true };
        return;
      }
      const short = lastPage(state, p.length);
      if (hit >= 0) {
        const moved = first + hit - anchors.indexOf(p[hit].id);
        Object.assign(state, { offset: state.offset + Math.max(0, moved), anchors: top });
      } else if (short) Object.assign(state, { offset: first + p.length, exhausted: true, anchors: top });
      yield { kind: 'page', rows: hit >= 0 ? p.slice(0, hit) : p, cursorAfter: { ...state }, cut: false };
      if (hit >= 0 || short) break;
      first += p.length;
    }
  }
  // The older part not listed yet.
  let first = Math.max(0, state.offset - (state.offset > 0 ? OVERLAP : 0));
  while (!state.exhausted) {
    const p = await fresh(first);
    if (!Array.isArray(p)) return yield p;
    if (first === 0 && state.anchors.length === 0) state.anchors = p.slice(0, ANCHORS).map((r) => r.id);
    const since = p.findIndex(tooOld);
    if (since >= 0) {
      yield { kind: 'page', rows: p.slice(0, since), cursorAfter: { ...state }, cut: true };
      return;
    }
    state.offset = first + p.length;
    state.exhausted = lastPage(state, p.length);
    yield { kind: 'page', rows: p, cursorAfter: { ...state }, cut: false };
    first += p.length;
  }
}

function judgeGame(body: Buffer): GameVerdict {
  const v = parseBody(body);
  if (!isObj(v)) return { kind: 'invalid', reason: `expected {"gameMoveHistoryStateMap": {...}}, got ${describeValue(v)}` };
  const map = v.gameMoveHistoryStateMap;
  // Bot games may come without a state map: nothing to replay, not a fault of the run.
  if (map === undefined || map === null || (isObj(map) && Object.keys(map).length === 0)) return { kind: 'unavailable', reason: 'the answer holds no game-move history (bot games may have none)' };
  if (!isObj(map)) return { kind: 'invalid', reason: `expected "gameMoveHistoryStateMap" to be an object of steps, got ${describeValue(map)}` };
  return { kind: 'game', refresh: null };
}

export const dicechessCom: Site = {
  name: 'dicechess-com',
  defaultBase: 'https://dicechess.com',
  tokenEnv: 'DICECHESS_TOKEN',
  historyList: true,
  list,
  gameCall: (base: string, id: string): Call => ({ method: 'GET', url: `${base}/api/game-move-history?gameId=${encodeURIComponent(id)}` }),
  judgeGame,
};
