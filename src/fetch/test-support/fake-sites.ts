import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadDialect } from '../../dialects/index.js';
import { DEFAULT_RATES, makeContext, playGame } from '../../generate/self-play.js';
import { FORMATS } from '../../records/formats/index.js';
import { makeHistoryRow } from '../../records/formats/dicechess-com/history-list.js';
import { makeStateMap } from '../../records/formats/dicechess-com/write.js';
import type { GameRecord } from '../../records/model/game-record.js';

/**
 * Loopback fakes of the two APIs of docs/formats.md#site-apis (127.0.0.1, port 0), serving games
 * the project's generator plays, written by the project's writers for the sites'
 * formats, through the documented paths and shapes. Faults are queued per game id
 * (or per listing request) and used up one a request.
 */
export type Obj = Record<string, unknown>;

export interface FakeGame {
  id: string;
  /** The listing row (Fortemate games-list row, dicechess.com history row). */
  row: Obj;
  /** The game answer's body as the site sends it. */
  body: string;
  record: GameRecord;
  /** When the listing orders it (newest first). */
  time: string;
}

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string; headers?: Record<string, string> }
  | { kind: 'stall' }
  | { kind: 'truncate' }
  | { kind: 'reset' }
  | { kind: 'garbage' }
  | { kind: 'delay'; ms: number };

export interface FakeRequest {
  method: string;
  url: string;
  authorization: string | null;
  cookie: string | null;
  body: string;
  at: number;
}

export interface FakeSiteOptions {
  games: FakeGame[];
  /** Rows a listing page holds at most (the server's own page size). */
  pageSize?: number;
  /** dicechess.com: the Authorization value the fake accepts (anything else: 401). */
  token?: string;
  /** The Fortemate guest id or dicechess.com player id the games belong to. */
  player: string;
  /** Game ids answered 404. */
  missing?: Iterable<string>;
  /** dicechess.com game ids answered without a state map (bot games). */
  noStateMap?: Iterable<string>;
  /** Game ids whose row the listing repeats at the top of the next page. */
  listedTwice?: Iterable<string>;
  /** Wait this long before each game answer (a slow server, for kill tests). */
  gameDelayMs?: number;
  /** Port on 127.0.0.1 (default 0: any free one). */
  port?: number;
  /** A misbehaving listing: given the N-th listing page (0-based) as it would be served, what to serve instead. */
  pageHook?: (page: ListedPage) => { rows: FakeGame[]; more: boolean };
}

export interface ListedPage {
  n: number;
  rows: FakeGame[];
  more: boolean;
  /** dicechess.com's `first`, Fortemate's `before` (null for each other's). */
  first: number | null;
  before: string | null;
}

export interface FakeSite {
  url: string;
  player: string;
  games: FakeGame[];
  requests: FakeRequest[];
  /** Faults queued by game id, or by `list:N` for the N-th listing request (0-based). */
  faults: Map<string, Fault[]>;
  /** Game answers served whole. */
  served: number;
  /** Called after each whole game answer. */
  onServed: ((id: string) => void) | null;
  /** While set, game answers wait for it (a kill test holds the server so the client cannot finish first). */
  hold: Promise<void> | null;
  /** Called after the N-th listing answer (0-based), e.g. to add games mid-listing. */
  onListed: ((n: number) => void) | null;
  /** Newer games (they go on top of the listing). */
  addGames(newer: FakeGame[]): void;
  close(): Promise<void>;
}

const contexts = new Map<string, ReturnType<typeof makeContext>>();
function play(dialect: string, seed: string, index: number, format: 'history' | 'dicechess-com'): GameRecord {
  let ctx = contexts.get(dialect);
  if (!ctx) {
    const d = loadDialect(dialect);
    if (!d.ok) throw new Error(`dialect ${dialect}`);
    ctx = makeContext(d.value.name, d.value.rules);
    contexts.set(dialect, ctx);
  }
  return playGame(ctx, { index, seed, format, bots: ['random', 'greedy'], rates: DEFAULT_RATES }).record;
}

/** Listing times: one game a minute back from a fixed instant, with milliseconds (cursors must not be reformatted). */
const timeOf = (i: number, offset = 0): string => new Date(Date.UTC(2026, 6, 30, 21, 5, 0, 123) - (i - offset) * 60_000).toISOString();

/** Fortemate games, newest first: format C bodies and games-list rows. `first` numbers them on (for newer batches, pass a negative start). */
export function fortemateGames(n: number, seed = 'fake-fm', first = 0): FakeGame[] {
  return Array.from({ length: n }, (_, k) => {
    const i = first + k;
    const time = timeOf(i);
    const record = { ...play('reference', seed, i + 1000, 'history'), finishedAt: time } as GameRecord;
    const seat = i % 2 === 0 ? 'White' : 'Black';
    const mine = seat === 'White' ? 'white' : 'black';
    const opponent = seat === 'White' ? record.players.black : record.players.white;
    const result = record.result === null ? 'unknown' : record.result === 'draw' ? 'draw' : record.result === mine ? 'win' : 'loss';
    const tc = record.timeControl;
    const row: Obj = {
      gameId: record.id,
      seat,
      opponent: { kind: opponent.kind === 'bot' ? 'Bot' : 'Human', name: opponent.name },
      result,
      rated: record.rated ?? true,
      termination: record.termination,
      timeControl: tc === null ? 'Unlimited' : `Fischer(${(tc.initialMs ?? 0) / 1000},${(tc.incrementMs ?? 0) / 1000})`,
      finishedAt: time,
    };
    return { id: record.id, row, body: FORMATS.history.make(record).trimEnd(), record, time };
  });
}

/** dicechess.com games, newest first: state-map answers (no gameId, as the site sends them) and history rows. */
export function dicechessGames(n: number, seed = 'fake-dc', first = 0): FakeGame[] {
  return Array.from({ length: n }, (_, k) => {
    const i = first + k;
    const time = timeOf(i);
    const record = { ...play('dicechess-com', seed, i + 1000, 'dicechess-com'), startedAt: time } as GameRecord;
    const { gameId: _id, ...answer } = makeStateMap(record) as Obj;
    return { id: record.id, row: makeHistoryRow(record), body: JSON.stringify(answer), record, time };
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const c of req) s += String(c);
  return s;
}

/** Starts a fake of one site's API on 127.0.0.1. */
export async function startFakeSite(site: 'fortemate' | 'dicechess-com', opts: FakeSiteOptions): Promise<FakeSite> {
  const games = [...opts.games];
  const pageSize = opts.pageSize ?? 20;
  const missing = new Set(opts.missing ?? []);
  const noStateMap = new Set(opts.noStateMap ?? []);
  const listedTwice = new Set(opts.listedTwice ?? []);
  const sockets = new Set<Socket>();
  let listings = 0;
  const fake: FakeSite = {
    url: '',
    player: opts.player,
    games,
    requests: [],
    faults: new Map(),
    served: 0,
    onServed: null,
    hold: null,
    onListed: null,
    addGames: (newer) => games.unshift(...newer),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const nextFault = (key: string): Fault | null => fake.faults.get(key)?.shift() ?? null;
  const json = (res: ServerResponse, status: number, v: unknown, listed: number | null = null): void => {
    const text = JSON.stringify(v);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text, () => {
      if (listed !== null) fake.onListed?.(listed);
    });
  };
  /** Applies a fault; true when it answered (or broke) the request. */
  const apply = async (f: Fault | null, res: ServerResponse, text: string): Promise<boolean> => {
    if (f === null) return false;
    switch (f.kind) {
      case 'delay':
        await new Promise((r) => setTimeout(r, f.ms));
        return false;
      case 'status':
        res.writeHead(f.status, { 'content-type': 'application/json', ...(f.retryAfter ? { 'retry-after': f.retryAfter } : {}), ...(f.headers ?? {}) }).end(f.body ?? JSON.stringify({ error: `fault ${f.status}` }));
        return true;
      case 'reset':
        res.socket?.destroy();
        return true;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>maintenance</html>');
        return true;
      case 'truncate': {
        const b = Buffer.from(text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length });
        res.write(b.subarray(0, Math.floor(b.length / 2)), () => res.socket?.destroy());
        return true;
      }
      case 'stall': {
        const b = Buffer.from(text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length });
        res.write(b.subarray(0, Math.floor(b.length / 3))); // then silence: the client's body timeout must end it
        return true;
      }
    }
  };
  const serveGame = async (id: string, res: ServerResponse): Promise<void> => {
    const g = games.find((x) => x.id === id);
    const body = g?.body ?? '';
    if (opts.gameDelayMs) await new Promise((r) => setTimeout(r, opts.gameDelayMs));
    if (fake.hold) await fake.hold;
    if (res.destroyed) return;
    if (await apply(nextFault(id), res, body)) return;
    if (!g || missing.has(id)) return json(res, 404, { error: site === 'fortemate' ? 'history unavailable' : 'game not found' });
    const text = noStateMap.has(id) ? JSON.stringify({ gameMoveHistoryStateMap: null }) : body;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text, () => {
      fake.served++;
      fake.onServed?.(id);
    });
  };
  /** One page of rows, a row of `listedTwice` repeated at the top of the page after it. */
  const withRepeats = (page: FakeGame[], all: FakeGame[], start: number): FakeGame[] => {
    const prev = all[start - 1];
    return prev && listedTwice.has(prev.id) ? [prev, ...page] : page;
  };

  const hooked = (p: ListedPage): { rows: FakeGame[]; more: boolean } => opts.pageHook?.(p) ?? p;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    fake.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: (req.headers.authorization as string | undefined) ?? null, cookie: req.headers.cookie ?? null, body, at: Date.now() });
    const url = new URL(req.url ?? '/', 'http://x');
    if (site === 'dicechess-com' && opts.token !== undefined && req.headers.authorization !== opts.token) return json(res, 401, { error: 'unauthorized' });
    if (site === 'fortemate') {
      let m = /^\/players\/([^/]+)\/games$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        if (await apply(nextFault(`list:${listings++}`), res, '{}')) return;
        if (decodeURIComponent(m[1]) !== opts.player) return json(res, 404, { error: 'unknown player' });
        const before = url.searchParams.get('before');
        const older = before === null ? games : games.filter((g) => Date.parse(g.time) < Date.parse(before));
        const start = games.length - older.length;
        const page = hooked({ n: listings - 1, rows: withRepeats(older.slice(0, pageSize), games, start), more: older.length > pageSize, first: null, before });
        return json(res, 200, { games: page.rows.map((g) => g.row), hasMore: page.more }, listings - 1);
      }
      m = /^\/games\/([^/]+)\/history$/.exec(url.pathname);
      if (m && req.method === 'GET') return serveGame(decodeURIComponent(m[1]), res);
    } else {
      if (url.pathname === '/api/player/history' && req.method === 'POST') {
        if (await apply(nextFault(`list:${listings++}`), res, '{}')) return;
        let q: Obj;
        try {
          q = JSON.parse(body) as Obj;
        } catch {
          return json(res, 400, { error: 'bad json' });
        }
        const filters = q.filters as Obj | undefined;
        if (typeof q.first !== 'number' || typeof q.pageSize !== 'number' || q.sortColumn !== 'DATE' || q.isAsc !== false || !filters) return json(res, 400, { error: 'bad query' });
        if (String(filters.PLAYER_ID) !== opts.player) return json(res, 200, { total: 0, content: [] });
        const size = Math.min(q.pageSize, pageSize);
        const page = hooked({ n: listings - 1, rows: withRepeats(games.slice(q.first, q.first + size), games, q.first), more: q.first + size < games.length, first: q.first, before: null });
        // The envelope is unverified in the docs: an object whose first array-valued property holds the rows.
        return json(res, 200, { total: games.length, content: page.rows.map((g) => g.row) }, listings - 1);
      }
      if (url.pathname === '/api/game-move-history' && req.method === 'GET') return serveGame(url.searchParams.get('gameId') ?? '', res);
    }
    json(res, 404, { error: 'no such path' });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
