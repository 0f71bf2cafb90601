import type { Row, SqlValue, Store } from './store-types.js';

/**
 * The history keeps, per (game, dialect, occurrence), only its TRANSITIONS: a row in
 * `transitions` for the run where the game first appeared and for every later run where its
 * result (or its place in results.ndjson) differs from the run before that judged its dialect,
 * or where it is gone. A row holds from its run until `next_run` (the key's next row; `OPEN`
 * for the key's latest one), so the state of every game as of any run R is the rows with
 * `run <= R < next_run`, and a year of mostly stable games costs nights × changes, not
 * nights × games. `current` names the keys (game id, dialect, occurrence: the n-th line of
 * that id and dialect in its run, as `diff` pairs them) with their latest row's state, which a
 * new run is compared with: read in key order beside the run's lines (a stable corpus brings
 * its games in the order they were first seen), looked up by key for the lines that are not.
 */
export const OPEN = 2_147_483_647;

export const CURRENT_COLUMNS = ['key_id', 'game', 'dialect', 'occ', 'run', 'present', 'status', 'digest', 'prev_status', 'prev_run'] as const;
export const TRANSITION_COLUMNS = ['key_id', 'run', 'next_run', 'line', 'present', 'status', 'rule', 'turn', 'micro_move', 'dfen', 'recorded', 'message', 'source', 'idx', 'turns', 'repeats', 'digest', 'prev_status', 'prev_run', 'turn_dfen'] as const;
/** The columns before schema 5 (no turn_dfen): what the migration to schema 3 writes. */
const TRANSITION_COLUMNS_4 = TRANSITION_COLUMNS.slice(0, -1);

/** One result line as the history stores it (the first finding only). */
export interface ResultRow {
  game: string;
  dialect: string;
  status: string;
  rule: string | null;
  turn: number | null;
  microMove: number | null;
  dfen: string | null;
  /** The first finding's turn start, where it lies past the turn's first micro-move (its check command starts there). */
  turnDfen: string | null;
  /** The first finding's recorded moves, space-separated. */
  recorded: string | null;
  message: string | null;
  source: string | null;
  index: number;
  turns: number | null;
  repeats: number | null;
}

/** A 53-bit hash (cyrb53) of a row's stored fields: equal digests, same state (0 is a gone row's). */
function digestOf(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0) || 1;
}

const field = (v: string | number | null) => (v === null ? '\u0002' : String(v));

/** Bind lists are padded to a few fixed lengths, so each statement is prepared once. */
const CHUNK = 500;
const padded = (values: SqlValue[]): SqlValue[] => (values.length === CHUNK ? values : [...values, ...new Array<null>(CHUNK - values.length).fill(null)]);
const marks = Array.from({ length: CHUNK }, () => '?').join(', ');

interface Latest {
  key: number;
  run: number;
  present: boolean;
  status: string | null;
  digest: number;
  prevStatus: string | null;
  prevRun: number | null;
}

export interface Stored {
  lines: number;
  /** Result lines per dialect (run_dialects.results). */
  perDialect: Map<string, number>;
  transitions: number;
}

/**
 * Stores one run's result lines (in their order, in batches of any size) as transitions against the state the history
 * holds, inside the caller's write transaction. `judged` are the run's dialects: their keys
 * that the run does not hold are recorded as gone. The run's runs row may not exist yet; its
 * run_dialects rows must not (the run before that judged a dialect is read from them).
 */
export async function storeResults(
  store: Store,
  run: number,
  judged: readonly string[],
  batches: AsyncIterable<readonly ResultRow[]> | Iterable<readonly ResultRow[]>,
  onProgress?: (lines: number) => void,
  schema = 5,
): Promise<Stored> {
  // Per judged dialect: the latest earlier run that judged it, how many lines it held, whether keys exist.
  const previous = new Map<string, { run: number | null; lines: number; keys: boolean }>();
  for (const d of judged) {
    const last = await store.all('SELECT run, results FROM run_dialects WHERE dialect = ? AND run < ? ORDER BY run DESC LIMIT 1', [d, run]);
    const ever = await store.all('SELECT max(results) AS n FROM run_dialects WHERE dialect = ? AND run < ?', [d, run]);
    previous.set(d, { run: last.length ? Number(last[0].run) : null, lines: last.length ? Number(last[0].results) : 0, keys: Number(ever[0]?.n ?? 0) > 0 });
  }
  const maxKey = Number((await store.all('SELECT max(key_id) AS n FROM current'))[0]?.n ?? 0);
  let nextKey = maxKey + 1;
  /** The existing keys this run holds (for what is gone). */
  const seen = new Uint8Array(maxKey + 1);
  const matchedPresent = new Map<string, number>();
  const perDialect = new Map<string, number>();

  // Occurrences: per game id a bit per dialect seen once; the rare repeats counted apart.
  const dialectIndex = new Map<string, number>();
  const once = new Map<string, number>();
  const more = new Map<string, number>();
  const occurrence = (game: string, dialect: string): number => {
    let di = dialectIndex.get(dialect);
    if (di === undefined) dialectIndex.set(dialect, (di = dialectIndex.size));
    if (di < 30) {
      const mask = once.get(game) ?? 0;
      const bit = 1 << di;
      if ((mask & bit) === 0) {
        once.set(game, mask | bit);
        return 1;
      }
    }
    const k = `${di}\u0000${game}`;
    const n = (more.get(k) ?? (di < 30 ? 1 : 0)) + 1;
    more.set(k, n);
    return n;
  };

  const latestOf = (f: Row): Latest & { game: string; dialect: string; occ: number } => ({
    key: Number(f.key_id),
    game: String(f.game),
    dialect: String(f.dialect),
    occ: Number(f.occ),
    run: Number(f.run),
    present: Number(f.present) === 1,
    status: f.status === null ? null : String(f.status),
    digest: Number(f.digest),
    prevStatus: f.prev_status === null ? null : String(f.prev_status),
    prevRun: f.prev_run === null ? null : Number(f.prev_run),
  });
  const LATEST = 'key_id, game, dialect, occ, run, present, status, digest, prev_status, prev_run';

  // The current state in key order, a window at a time, matched against the lines as they come.
  const WINDOW = 16;
  let stream: ReturnType<typeof latestOf>[] = [];
  let at = 0;
  let streamAfter = 0;
  let streamDone = !judged.some((d) => previous.get(d)?.keys);
  /** The next page of the stream, when the window reaches past what is read (awaited only then, not a line). */
  const refill = async () => {
    const page = (await store.all(`SELECT ${LATEST} FROM current WHERE key_id > ? ORDER BY key_id LIMIT 5000`, [streamAfter])).map(latestOf);
    streamDone = page.length < 5000;
    if (page.length) streamAfter = page[page.length - 1].key;
    stream = [...stream.slice(at), ...page];
    at = 0;
  };
  const fromStream = (r: ResultRow, occ: number): Latest | null => {
    for (let j = at; j < Math.min(stream.length, at + WINDOW); j++) {
      const c = stream[j];
      if (c.occ === occ && c.game === r.game && c.dialect === r.dialect) {
        at = j + 1;
        return c;
      }
    }
    return null;
  };

  let transitions = 0;
  const insertTransitions = async (list: SqlValue[][]) => {
    if (list.length === 0) return;
    transitions += list.length;
    if (schema >= 5) await store.insertRows('transitions', TRANSITION_COLUMNS, list);
    else await store.insertRows('transitions', TRANSITION_COLUMNS_4, list.map((row) => row.slice(0, -1)));
  };
  /** The keys' rows that held until now end at this run; their current state becomes the new one. */
  const close = async (keys: number[], states: SqlValue[][]) => {
    for (let i = 0; i < keys.length; i += CHUNK)
      await store.run(`UPDATE transitions SET next_run = ? WHERE next_run = ? AND run < ? AND key_id IN (${marks})`, [run, OPEN, run, ...padded(keys.slice(i, i + CHUNK))]);
    for (const s of states) await store.run('UPDATE current SET run = ?, present = ?, status = ?, digest = ?, prev_status = ?, prev_run = ? WHERE key_id = ?', s);
  };

  type Pending = { row: ResultRow; line: number; occ: number; digest: number; latest: Latest | null };
  const flush = async (batch: Pending[]) => {
    // The latest row of the keys the stream did not bring, per dialect that has keys at all.
    const latest = new Map<string, Latest>();
    const games = new Map<string, Set<string>>();
    for (const p of batch) {
      if (p.latest || !previous.get(p.row.dialect)?.keys) continue;
      let set = games.get(p.row.dialect);
      if (!set) games.set(p.row.dialect, (set = new Set()));
      set.add(p.row.game);
    }
    for (const [dialect, set] of games) {
      const list = [...set];
      for (let i = 0; i < list.length; i += CHUNK)
        for (const f of await store.all(`SELECT ${LATEST} FROM current WHERE dialect = ? AND game IN (${marks})`, [dialect, ...padded(list.slice(i, i + CHUNK))]))
          latest.set(`${dialect}\u0000${String(f.game)}\u0000${Number(f.occ)}`, latestOf(f));
    }
    const keys: SqlValue[][] = [];
    const out: SqlValue[][] = [];
    const closing: number[] = [];
    const states: SqlValue[][] = [];
    for (const p of batch) {
      const r = p.row;
      const had = p.latest ?? latest.get(`${r.dialect}\u0000${r.game}\u0000${p.occ}`);
      let key: number;
      let prevStatus: string | null = null;
      let prevRun: number | null = null;
      if (had) {
        key = had.key;
        seen[key] = 1;
        if (had.present) matchedPresent.set(r.dialect, (matchedPresent.get(r.dialect) ?? 0) + 1);
        if (had.present && had.digest === p.digest) continue;
        [prevStatus, prevRun] = had.present ? [had.status, previous.get(r.dialect)?.run ?? null] : [had.prevStatus, had.prevRun];
        closing.push(key);
        states.push([run, 1, r.status, p.digest, prevStatus, prevRun, key]);
      } else {
        key = nextKey++;
        keys.push([key, r.game, r.dialect, p.occ, run, 1, r.status, p.digest, null, null]);
      }
      out.push([key, run, OPEN, p.line, 1, r.status, r.rule, r.turn, r.microMove, r.dfen, r.recorded, r.message, r.source, r.index, r.turns, r.repeats, p.digest, prevStatus, prevRun, r.turnDfen]);
    }
    await close(closing, states);
    if (keys.length) await store.insertRows('current', CURRENT_COLUMNS, keys);
    await insertTransitions(out);
  };

  const BATCH = 5_000;
  let batch: Pending[] = [];
  let line = 0;
  for await (const rows of batches) {
    for (const r of rows) {
      line++;
      perDialect.set(r.dialect, (perDialect.get(r.dialect) ?? 0) + 1);
      const occ = occurrence(r.game, r.dialect);
      const digest = digestOf(
        `${line}\u0001${r.status}\u0001${field(r.rule)}\u0001${field(r.turn)}\u0001${field(r.microMove)}\u0001${field(r.dfen)}\u0001${field(r.recorded)}\u0001${field(r.message)}\u0001${field(r.source)}\u0001${r.index}\u0001${field(r.turns)}\u0001${field(r.repeats)}`,
      );
      if (!streamDone && at + WINDOW > stream.length) await refill();
      batch.push({ row: r, line, occ, digest, latest: at >= stream.length ? null : fromStream(r, occ) });
      if (batch.length >= BATCH) {
        await flush(batch);
        batch = [];
        onProgress?.(line);
      }
    }
  }
  await flush(batch);

  // Gone: keys of a judged dialect that held until now and that this run does not hold.
  for (const d of judged) {
    const prev = previous.get(d)!;
    if (prev.lines <= (matchedPresent.get(d) ?? 0)) continue;
    const held = await store.all('SELECT key_id, status FROM current WHERE dialect = ? AND present = 1 AND run < ?', [d, run]);
    const gone = held.filter((h) => Number(h.key_id) >= seen.length || seen[Number(h.key_id)] === 0);
    await close(
      gone.map((h) => Number(h.key_id)),
      gone.map((h) => [run, 0, null, 0, h.status, prev.run, h.key_id]),
    );
    await insertTransitions(gone.map((h) => [Number(h.key_id), run, OPEN, null, 0, null, null, null, null, null, null, null, null, null, null, null, 0, h.status === null ? null : String(h.status), prev.run, null]));
  }
  return { lines: line, perDialect, transitions };
}
