import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from '../output/atomic-file.js';
import { gameFile } from './game-file.js';
import type { Answer, Client } from './http.js';
import type { GameEntry } from './manifest.js';
import type { Redactor } from './redact.js';
import { isObj, type ListedRow, type Obj, parseBody, type Site } from './sites/site.js';

export interface GameContext {
  site: Site;
  base: string;
  out: string;
  client: Client;
  redactor: Redactor;
  signal: AbortSignal;
}

/** What asking for one game came to: its manifest entry, or a reason to stop the whole run, or nothing (stopped meanwhile). */
export type GameOutcome =
  | { kind: 'entry'; entry: GameEntry }
  | { kind: 'refused'; answer: Extract<Answer, { ok: false }> }
  | { kind: 'write-error'; message: string }
  | { kind: 'aborted' };

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Failures of the whole folder (no space, no permission): the run stops. Any other failure to store one game is that game's. */
const FOLDER_WIDE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

/** The game id an answer names for itself (`gameId`), or null when it names none. */
function bodyId(v: unknown): string | null {
  if (!isObj(v)) return null;
  const id = v.gameId;
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return null;
}

/**
 * The bytes stored for a game: the answer as it came, with the listed id put first
 * (`{"gameId": …, …}`) when the answer names none (dicechess.com's game answers do
 * not), so the file says which game it is whatever its name, and a reader attaches the
 * history-list row by that id.
 */
function stamped(body: Buffer, id: string, v: unknown): Buffer {
  if (!isObj(v) || bodyId(v) !== null) return body;
  const text = body.toString('utf8');
  const open = text.indexOf('{');
  const rest = text.slice(open + 1).trimStart();
  return Buffer.from(`${text.slice(0, open + 1)}"gameId":${JSON.stringify(id)}${rest.startsWith('}') ? '' : ','}${rest}`, 'utf8');
}

/** Later runs ask again for a game that will hold more, a few times at most. */
export const REFRESHES = 5;
const refreshOf = (reason: string | null, prior: GameEntry | undefined): GameEntry['refresh'] => {
  if (reason === null) return null;
  const left = prior?.refresh ? prior.refresh.left - 1 : REFRESHES;
  return left > 0 ? { reason, left } : null;
};

/**
 * One game: stored atomically under `games/<id>.json` when the answer is a game; a
 * 404/410 or an answer without a game is `unavailable`; anything else that keeps
 * failing is `failed`. A file already under the name is adopted when it is a whole
 * game (a run killed before its manifest caught up) and never overwritten, except this
 * tool's own unchanged file of a game due a refresh.
 */
export async function fetchGame(ctx: GameContext, r: ListedRow, listing: Obj | null, prior: GameEntry | undefined): Promise<GameOutcome> {
  const { site } = ctx;
  const file = gameFile(r.id);
  const target = path.join(ctx.out, file);
  const at = (): string => new Date().toISOString();
  const base: Omit<GameEntry, 'status' | 'fetchedAt'> = { id: r.id, listing, attempts: prior?.attempts ?? 0, file: null, bytes: null, sha256: null, reason: null, error: null, httpStatus: null, refresh: null };
  const entry = (e: GameEntry): GameOutcome => ({ kind: 'entry', entry: e });
  let refreshing = false;
  if (existsSync(target)) {
    const bytes = await readFile(target);
    // Replaced only when it is this tool's own file, unchanged, kept for a refresh.
    refreshing = prior?.status === 'fetched' && prior.refresh !== null && prior.file === file && prior.sha256 === sha256(bytes);
    if (!refreshing) {
      const v = site.judgeGame(bytes);
      if (v.kind === 'game') return entry({ ...base, status: 'fetched', fetchedAt: at(), file, bytes: bytes.length, sha256: sha256(bytes), httpStatus: 200, refresh: refreshOf(v.refresh, prior) });
      return entry({ ...base, status: 'failed', fetchedAt: at(), error: { code: 'fetch.file-exists', message: `${file} exists and is not a complete game; it is left as it is` } });
    }
  }
  if (site.gameCall(ctx.base, r.id) === null) {
    return entry({ ...base, status: 'failed', fetchedAt: at(), error: { code: 'fetch.bad-id', message: `the game id ${JSON.stringify(r.id)} cannot be asked for: as a URL path segment it would change the path` } });
  }
  const outcome = await ask(ctx, r, file, target, base, prior);
  // A refresh that did not bring the game keeps the game already stored.
  if (refreshing && outcome.kind === 'entry' && outcome.entry.status !== 'fetched') {
    return entry({ ...prior!, listing: base.listing, attempts: outcome.entry.attempts, refresh: refreshOf(prior!.refresh!.reason, prior) });
  }
  return outcome;
}

async function ask(ctx: GameContext, r: ListedRow, file: string, target: string, base: Omit<GameEntry, 'status' | 'fetchedAt'>, prior: GameEntry | undefined): Promise<GameOutcome> {
  const { site, redactor } = ctx;
  const at = (): string => new Date().toISOString();
  const entry = (e: GameEntry): GameOutcome => ({ kind: 'entry', entry: e });
  let attempts = base.attempts;
  for (let round = 0; ; round++) {
    const answer = await ctx.client.call(site.gameCall(ctx.base, r.id)!, ctx.signal);
    attempts += answer.attempts;
    if (ctx.signal.aborted) return { kind: 'aborted' }; // no outcome: the game is listed again next run
    if (!answer.ok) {
      if (answer.status === 401 || answer.status === 403) return { kind: 'refused', answer };
      if (answer.status === 404 || answer.status === 410) return entry({ ...base, attempts, status: 'unavailable', fetchedAt: at(), httpStatus: answer.status, reason: answer.reason || `HTTP ${answer.status}` });
      return entry({ ...base, attempts, status: 'failed', fetchedAt: at(), httpStatus: answer.status, error: { code: answer.code, message: answer.message } });
    }
    const verdict = site.judgeGame(answer.body);
    if (verdict.kind === 'invalid' && round === 0) continue; // a garbled answer gets one more try
    if (verdict.kind === 'unavailable') return entry({ ...base, attempts, status: 'unavailable', fetchedAt: at(), httpStatus: answer.status, reason: verdict.reason });
    if (verdict.kind === 'invalid') return entry({ ...base, attempts, status: 'failed', fetchedAt: at(), httpStatus: answer.status, error: { code: 'fetch.bad-game', message: verdict.reason } });
    if (redactor.leaks(answer.body)) {
      return entry({ ...base, attempts, status: 'failed', fetchedAt: at(), httpStatus: answer.status, error: { code: 'fetch.token-in-body', message: 'the answer holds the login token or cookie (raw or encoded); not saved' } });
    }
    // The answer must be the game that was listed: one game listed under two ids would be stored, and replayed, twice.
    const parsed = parseBody(answer.body);
    const named = bodyId(parsed);
    if (named !== null && named !== r.id) {
      return entry({ ...base, attempts, status: 'failed', fetchedAt: at(), httpStatus: answer.status, error: { code: 'fetch.id-mismatch', message: `listed as ${JSON.stringify(r.id)}, but the answer is the game ${JSON.stringify(named)}; not saved` } });
    }
    const body = stamped(answer.body, r.id, parsed);
    try {
      await writeAtomic(target, body);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (FOLDER_WIDE.has(code)) return { kind: 'write-error', message: `cannot write ${target}: ${(e as Error).message}` };
      return entry({ ...base, attempts, status: 'failed', fetchedAt: at(), httpStatus: answer.status, error: { code: 'fetch.store', message: `cannot store the game as ${file}: ${(e as Error).message}` } });
    }
    return entry({ ...base, attempts, status: 'fetched', fetchedAt: at(), file, bytes: body.length, sha256: sha256(body), httpStatus: answer.status, refresh: refreshOf(verdict.refresh, prior) });
  }
}
