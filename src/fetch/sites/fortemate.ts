import type { Call } from '../http.js';
import { type GameVerdict, ListingGuard, pathSegment, type ListContext, type ListStep, type ListedRow, type Obj, type Site, describeAnswer, describeValue, isObj, parseBody, rowId, timeMs } from './site.js';

/**
 * Fortemate play-api (docs/formats.md#fortemate-play-api): `GET /players/{id}/games[?before=ISO]`, newest
 * first, keyset pages (`before` = the oldest row's `finishedAt` exactly as sent),
 * `hasMore: false` at the end; `GET /games/{id}/history` is format C, 404 = no
 * archived history. The cursor is the span listed so far: `top` (newest
 * `finishedAt` of a finished pass), `bottom` (the `before` to continue older) and
 * `exhausted`. A run lists newer pages down to `top`, then older ones from `bottom`.
 */
interface Cursor {
  top: string | null;
  bottom: string | null;
  exhausted: boolean;
}

const cursorOf = (c: Obj | null): Cursor => ({
  top: typeof c?.top === 'string' ? c.top : null,
  bottom: typeof c?.bottom === 'string' ? c.bottom : null,
  exhausted: c?.exhausted === true,
});

/** a older than b? By time when both read as times, else by text (ISO sorts as text). */
const older = (a: string, b: string): boolean => {
  const ta = timeMs(a);
  const tb = timeMs(b);
  return ta !== null && tb !== null ? ta < tb : a < b;
};

async function page(ctx: ListContext, before: string | null): Promise<{ rows: ListedRow[]; raw: Obj[]; more: boolean } | ListStep> {
  const player = pathSegment(ctx.player);
  if (player === null) return { kind: 'shape', message: `the player id ${JSON.stringify(ctx.player)} cannot be put in the games list's URL path` };
  const url = `${ctx.base}/players/${player}/games${before === null ? '' : `?before=${encodeURIComponent(before)}`}`;
  const answer = await ctx.client.call({ method: 'GET', url }, ctx.signal);
  if (!answer.ok) return { kind: 'error', answer, what: 'the games list' };
  const v = parseBody(answer.body);
  if (!isObj(v) || !Array.isArray(v.games)) return { kind: 'shape', message: `GET ${url}: expected {"games": [...], "hasMore": bool}, got ${describeAnswer(answer, v)}` };
  const rows: ListedRow[] = [];
  const raw: Obj[] = [];
  for (const r of v.games) {
    const id = rowId(r);
    if (id === null) return { kind: 'shape', message: `GET ${url}: a row has no "gameId" (expected rows of {gameId, seat, result, finishedAt, …}, got ${describeValue(r)})` };
    rows.push({ id, row: r as Obj });
    raw.push(r as Obj);
  }
  // hasMore is the documented end mark; without it, an empty page is the end.
  const more = typeof v.hasMore === 'boolean' ? v.hasMore : rows.length > 0;
  return { rows, raw, more };
}

const finishedAt = (r: Obj): string | null => (typeof r.finishedAt === 'string' && r.finishedAt !== '' ? r.finishedAt : null);

async function* list(ctx: ListContext): AsyncGenerator<ListStep> {
  const state = cursorOf(ctx.cursor);
  const guard = new ListingGuard();
  const fresh = (before: string | null): ReturnType<typeof page> =>
    guard.fresh(() => page(ctx, before), (p) => ({ rows: p.rows, last: !p.more }), `GET ${ctx.base}/players/${encodeURIComponent(ctx.player)}/games${before === null ? '' : `?before=${before}`}`);
  /** A keyset cursor that stays where it was cannot reach older pages. */
  const stuck = (before: string | null, next: string | null): ListStep | null =>
    next !== null && next === before ? { kind: 'stuck', message: `the games list says hasMore but its oldest row is at before=${before} again: the listing does not move` } : null;
  const tooOld = (r: Obj): boolean => {
    const t = timeMs(r.finishedAt);
    return ctx.sinceMs !== null && t !== null && t < ctx.sinceMs;
  };
  // Newer games since the last finished pass: from the top down to `top`.
  if (state.top !== null) {
    const oldTop = state.top;
    let before: string | null = null;
    let newTop: string | null = null;
    for (;;) {
      const p = await fresh(before);
      if ('kind' in p) return yield p;
      newTop ??= p.raw.map(finishedAt).find((t) => t !== null) ?? null;
      let end = p.raw.findIndex((r) => {
        const t = finishedAt(r);
        return t !== null && older(t, oldTop);
      });
      const since = p.raw.findIndex(tooOld);
      const cutBySince = since >= 0 && (end < 0 || since < end);
      if (cutBySince) end = since;
      const reached = end >= 0 || !p.more || p.rows.length === 0;
      if (reached && !cutBySince) state.top = newTop ?? oldTop;
      const last = finishedAt(p.raw[p.raw.length - 1] ?? {});
      yield { kind: 'page', rows: end >= 0 ? p.rows.slice(0, end) : p.rows, cursorAfter: { ...state }, cut: cutBySince };
      if (cutBySince) return;
      if (reached) break;
      if (last === null) return yield { kind: 'shape', message: `the games list's last row has no "finishedAt": cannot ask for the page before it` };
      const s = stuck(before, last);
      if (s) return yield s;
      before = last;
    }
  }
  // Older games: from `bottom` (the top on a first run) to the end.
  let first = state.bottom === null;
  while (!state.exhausted) {
    const p = await fresh(state.bottom);
    if ('kind' in p) return yield p;
    if (first && state.top === null) state.top = p.raw.map(finishedAt).find((t) => t !== null) ?? null;
    first = false;
    const since = p.raw.findIndex(tooOld);
    if (since >= 0) {
      // Stop at --since without moving the cursor past rows not taken.
      yield { kind: 'page', rows: p.rows.slice(0, since), cursorAfter: { ...state }, cut: true };
      return;
    }
    const last = p.raw.length > 0 ? finishedAt(p.raw[p.raw.length - 1]) : state.bottom;
    if (p.more && p.rows.length > 0 && last === null) return yield { kind: 'shape', message: `the games list's last row has no "finishedAt": cannot ask for the page before it` };
    const s = p.more ? stuck(state.bottom, last) : null;
    if (s) return yield s;
    state.bottom = last;
    state.exhausted = !p.more || p.rows.length === 0;
    yield { kind: 'page', rows: p.rows, cursorAfter: { ...state }, cut: false };
  }
}

function judgeGame(body: Buffer): GameVerdict {
  const v = parseBody(body);
  if (!isObj(v)) return { kind: 'invalid', reason: `expected a finished-game history (format C), got ${describeValue(v)}` };
  if (!Array.isArray(v.turns) && typeof v.initialDfen !== 'string') return { kind: 'invalid', reason: `expected a finished-game history with "turns" and "initialDfen", got ${describeValue(v)}` };
  // The seeds may be null until the reveal is allowed; the game is worth asking for again then.
  const f = v.fairness;
  if (isObj(f) && (f.seed === null || f.clientSeeds === null)) return { kind: 'game', refresh: 'the fairness reveal (seeds) is not public yet' };
  return { kind: 'game', refresh: null };
}

export const fortemate: Site = {
  name: 'fortemate',
  defaultBase: 'https://api.fortemate.com',
  tokenEnv: null,
  historyList: false,
  list,
  gameCall: (base: string, id: string): Call | null => {
    const seg = pathSegment(id);
    return seg === null ? null : { method: 'GET', url: `${base}/games/${seg}/history` };
  },
  judgeGame,
};
