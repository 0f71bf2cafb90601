import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazily } from '../lazily.js';
import { FETCH_MANIFEST_FORMAT, FETCH_MANIFEST_NAME } from '../records/fetch-folder.js';
import { writeAtomic } from '../output/atomic-file.js';

/**
 * DIR/manifest.json: every game a fetch listed, each with its outcome, and the
 * listing cursor reached. A game enters `games` only with an outcome, and the cursor
 * only moves past a listing page once every game of it has one, so a run killed at
 * any moment re-lists what it had not finished and loses nothing it had:
 * listed = fetched + unavailable + failed, always.
 */
export const MANIFEST_FORMAT = FETCH_MANIFEST_FORMAT;
export const MANIFEST_NAME = FETCH_MANIFEST_NAME;
export const HISTORY_LIST_NAME = 'history-list.json';
export const GAMES_DIR = 'games';

const Obj = lazily(() => z.record(z.string(), z.unknown()));

export const GameEntry = lazily(() =>
  z.object({
    id: z.string(),
    status: z.enum(['fetched', 'unavailable', 'failed']),
    /** When the outcome was reached (fetched: when the bytes arrived). */
    fetchedAt: z.string(),
    /** Folder-relative path of the game file (fetched). */
    file: z.string().nullable(),
    bytes: z.number().nullable(),
    sha256: z.string().nullable(),
    /** Last HTTP status seen (null when no answer arrived). */
    httpStatus: z.number().nullable(),
    /** unavailable: why (the server's words when it gave some). */
    reason: z.string().nullable(),
    /** failed: what went wrong. */
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** fetched: why a later run asks for the game again (a fairness reveal not public yet) and how many more times; null: never. */
    refresh: z.object({ reason: z.string(), left: z.number() }).nullable().default(null),
    /** HTTP tries over every run. */
    attempts: z.number(),
    /** The listing row as the site sent it (null for ids from a plain list). */
    listing: Obj.nullable(),
  }),
);
export type GameEntry = z.infer<typeof GameEntry>;

export const RunEntry = lazily(() =>
  z.object({
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    completed: z.boolean(),
    pages: z.number(),
    fetched: z.number(),
    unavailable: z.number(),
    failed: z.number(),
    skipped: z.number(),
    requests: z.number(),
  }),
);
export type RunEntry = z.infer<typeof RunEntry>;

export const Manifest = lazily(() =>
  z.object({
    format: z.literal(MANIFEST_FORMAT),
    tool: z.string(),
    site: z.enum(['fortemate', 'dicechess-com']),
    baseUrl: z.string(),
    player: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    /** Site-specific listing position (see each site's module); null before any listing. */
    cursor: Obj.nullable(),
    /**
     * How the last run's listing ended: complete (it reached the end, or --since, or
     * --limit, and the cursor says where to go on), or incomplete with why (the server's
     * pages did not move, or it stopped answering): games past the cursor are not listed.
     * null before any listing, and for --ids.
     */
    listing: z.object({ complete: z.boolean(), reason: z.string().nullable() }).nullable().default(null),
    counts: z.object({ listed: z.number(), fetched: z.number(), unavailable: z.number(), failed: z.number() }),
    /** dicechess.com: the history-list file beside the games (metadata replay picks up). */
    historyList: z.string().nullable(),
    /** The latest runs, newest last. */
    runs: z.array(RunEntry),
    games: z.array(GameEntry),
  }),
);
export type Manifest = z.infer<typeof Manifest>;

export type ManifestRead = { kind: 'none' } | { kind: 'ok'; manifest: Manifest } | { kind: 'foreign'; why: string };

/** The manifest of a folder: absent, ours, or something else (never to be touched). */
export async function readManifest(dir: string): Promise<ManifestRead> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST_NAME), 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { kind: 'none' };
    return { kind: 'foreign', why: `cannot read it: ${(e as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { kind: 'foreign', why: `it is not JSON (${(e as Error).message})` };
  }
  if ((value as { format?: unknown })?.format !== MANIFEST_FORMAT) return { kind: 'foreign', why: `it is not a ${MANIFEST_FORMAT} manifest` };
  const parsed = Manifest.safeParse(value);
  if (!parsed.success) return { kind: 'foreign', why: `it does not follow ${MANIFEST_FORMAT}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` };
  return { kind: 'ok', manifest: parsed.data };
}

export function countsOf(games: GameEntry[]): Manifest['counts'] {
  const c = { listed: games.length, fetched: 0, unavailable: 0, failed: 0 };
  for (const g of games) c[g.status]++;
  return c;
}

/**
 * The manifest in memory and on disk. Every change marks it dirty; saves are
 * atomic and coalesced (one in flight, the next after a pause that grows with the
 * time a save takes), so a large manifest costs a bounded share of the run.
 */
export class ManifestStore {
  private readonly byId = new Map<string, number>();
  private dirty = false;
  private saving: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastSaveMs = 0;
  failure: Error | null = null;

  constructor(
    readonly dir: string,
    readonly manifest: Manifest,
    /** Written before the manifest on each save (the history list). */
    private readonly beforeSave: ((m: Manifest) => Promise<void>) | null = null,
  ) {
    manifest.games.forEach((g, i) => this.byId.set(g.id, i));
  }

  get(id: string): GameEntry | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.manifest.games[i];
  }

  /** Records a game's outcome (replacing an earlier one of the same id, keeping its place). */
  put(entry: GameEntry): void {
    const i = this.byId.get(entry.id);
    if (i === undefined) {
      this.byId.set(entry.id, this.manifest.games.length);
      this.manifest.games.push(entry);
    } else this.manifest.games[i] = entry;
    this.touch();
  }

  setCursor(cursor: Record<string, unknown> | null): void {
    this.manifest.cursor = cursor;
    this.touch();
  }

  touch(): void {
    this.dirty = true;
    if (this.saving || this.timer) return;
    const pause = Math.min(5_000, Math.max(100, this.lastSaveMs * 4));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.saveNow();
    }, pause);
  }

  private saveNow(): Promise<void> {
    if (this.saving) return this.saving;
    this.saving = (async () => {
      while (this.dirty) {
        this.dirty = false;
        const t0 = Date.now();
        const m = this.manifest;
        m.updatedAt = new Date().toISOString();
        m.counts = countsOf(m.games);
        try {
          if (this.beforeSave) await this.beforeSave(m);
          await writeAtomic(path.join(this.dir, MANIFEST_NAME), `${JSON.stringify(m, null, 1)}\n`);
        } catch (e) {
          this.failure = e as Error;
        }
        this.lastSaveMs = Date.now() - t0;
      }
    })().finally(() => {
      this.saving = null;
      if (this.dirty) this.touch(); // changed after the loop's last look
    });
    return this.saving;
  }

  /** Saves now (and waits for a save in flight): the end of a run, or a page boundary that must be on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.saving) await this.saving;
    this.dirty = true;
    await this.saveNow();
    if (this.failure) throw this.failure;
  }
}
