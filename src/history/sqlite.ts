import { createRequire } from 'node:module';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HistoryError } from './errors.js';
import type { OpenOptions, Row, SqlValue, Store } from './store-types.js';

type Libsql = typeof import('libsql');
type Database = InstanceType<Libsql>;

/**
 * Rows as plain objects of their columns. Read raw (arrays): libsql's row objects carry its
 * timings too, and deleting that key would turn every row into a slow dictionary object.
 */
function rowsOf(statement: { raw(on?: boolean): unknown; columns(): { name: string }[]; all(params: unknown[]): unknown[] }, params: SqlValue[]): Row[] {
  const names = statement.columns().map((c) => c.name);
  const out: Row[] = [];
  for (const values of (statement.raw(true) as typeof statement).all(params) as SqlValue[][]) {
    const row: Row = {};
    for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
    out.push(row);
  }
  return out;
}

/**
 * Many rows into one table, a few hundred a statement (each call into the engine costs more
 * than a row). Every bound parameter costs more than the engine's work on its value, and at
 * millions of rows most columns are the same in every row or empty (the run, a row's open end,
 * a conforming line's finding): a value all the rows share is bound once (`?N`, used by every
 * row), and a row's NULLs are written as NULL, rows grouped by which columns are NULL.
 * The rows go in grouped that way, not in their order (nothing reads a table's insertion order).
 */
function insertMany(prepare: (shape: string, sql: () => string) => { run(params: unknown[]): unknown }, table: string, columns: readonly string[], rows: SqlValue[][]): void {
  if (rows.length === 0) return;
  const width = columns.length;
  const sharedAt: number[] = new Array(width).fill(0);
  const shared: SqlValue[] = [];
  for (let c = 0; c < width; c++) {
    const v = rows[0][c];
    let same = true;
    for (let r = 1; same && r < rows.length; r++) same = rows[r][c] === v;
    // 0: its own value a row; -1: NULL in every row; n > 0: bound once as ?n.
    sharedAt[c] = !same ? 0 : v === null ? -1 : shared.push(v);
  }
  const masks = width <= 30;
  const groups = new Map<number, SqlValue[][]>();
  for (const row of rows) {
    let mask = 0;
    if (masks) for (let c = 0; c < width; c++) if (sharedAt[c] === 0 && row[c] === null) mask |= 1 << c;
    let g = groups.get(mask);
    if (!g) groups.set(mask, (g = []));
    g.push(row);
  }
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  for (const [mask, list] of groups) {
    const own: number[] = [];
    for (let c = 0; c < width; c++) if (sharedAt[c] === 0 && (mask & (1 << c)) === 0) own.push(c);
    const per = Math.max(1, Math.min(200, Math.floor(30_000 / Math.max(1, own.length))));
    const shape = `${head}${sharedAt.join(',')}/${mask}/`;
    const sql = (n: number) => () => {
      let next = shared.length;
      const tuples: string[] = new Array(n);
      for (let r = 0; r < n; r++) {
        const cells: string[] = new Array(width);
        for (let c = 0; c < width; c++) cells[c] = sharedAt[c] > 0 ? `?${sharedAt[c]}` : sharedAt[c] < 0 || (mask & (1 << c)) !== 0 ? 'NULL' : `?${++next}`;
        tuples[r] = `(${cells.join(', ')})`;
      }
      return head + tuples.join(', ');
    };
    // The parameters of a chunk in one preallocated array (slice + flat per chunk cost a third of the engine's time).
    const params: SqlValue[] = new Array(shared.length + per * own.length);
    for (let i = 0; i < shared.length; i++) params[i] = shared[i];
    // Full chunks, then the rest in powers of two: a few statement shapes, each prepared once.
    for (let i = 0, n = per; i < list.length; i += n) {
      const left = list.length - i;
      if (left < per) {
        n = 1;
        while (n * 2 <= left) n *= 2;
      }
      params.length = shared.length + n * own.length;
      let k = shared.length;
      for (let r = i; r < i + n; r++) {
        const row = list[r];
        for (let j = 0; j < own.length; j++) params[k++] = row[own[j]];
      }
      prepare(shape + n, sql(n)).run(params);
    }
  }
}

/** An error of the SQLite engine in the history's words (a lock, a file that is no database). */
export function sqliteFailure(error: unknown, shown: string, lockTimeoutMs: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return new HistoryError('history-locked', `${shown} is locked by another writer; waited ${lockTimeoutMs / 1000} s (--lock-timeout) and gave up: nothing written`);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return new HistoryError('history-not-a-database', `${shown} is not a history database (${code})`);
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_IOERR' || code === 'SQLITE_FULL')
    return new HistoryError('history-connect', `${shown}: ${code} (${(error as Error).message})`);
  return error;
}

/**
 * The embedded history: one SQLite file in WAL mode (readers never wait for the writer; a
 * writer waits up to the lock timeout for another; a kill -9 leaves the last committed state).
 */
export function openSqlite(path: string, opts: OpenOptions): Store {
  const shown = path;
  const lockTimeoutMs = opts.lockTimeoutMs ?? 60_000;
  const file = resolve(path);
  if (opts.readonly && !existsSync(file)) throw new HistoryError('history-connect', `${shown}: no such history database`);
  if (!opts.readonly) {
    try {
      mkdirSync(dirname(file), { recursive: true });
    } catch (e) {
      throw new HistoryError('history-connect', `${shown}: cannot create its folder (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  const Libsql = createRequire(import.meta.url)('libsql') as Libsql;
  let db: Database;
  try {
    db = new Libsql(file);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(lockTimeoutMs))}`);
    if (opts.readonly) db.exec('PRAGMA query_only = ON');
    else db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    // Touch the file's header: a file that is not SQLite fails here, not in the middle of a query.
    db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
  } catch (error) {
    const failure = sqliteFailure(error, shown, lockTimeoutMs);
    if (failure instanceof HistoryError) throw failure;
    throw new HistoryError('history-connect', `${shown}: cannot open (${(error as Error).message})`);
  }
  const statements = new Map<string, ReturnType<Database['prepare']>>();
  const prepare = (sql: string) => {
    let s = statements.get(sql);
    if (!s) statements.set(sql, (s = db.prepare(sql)));
    return s;
  };
  // Insert statements come in many shapes (insertMany): kept apart, and forgotten past a few hundred.
  const inserts = new Map<string, ReturnType<Database['prepare']>>();
  const prepareInsert = (shape: string, sql: () => string) => {
    let s = inserts.get(shape);
    if (!s) {
      if (inserts.size >= 256) inserts.clear();
      inserts.set(shape, (s = db.prepare(sql())));
    }
    return s;
  };
  const guard = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      throw sqliteFailure(error, shown, lockTimeoutMs);
    }
  };
  return {
    kind: 'sqlite',
    shown,
    all: async (sql, params = []) => guard(() => rowsOf(prepare(sql) as never, params)),
    run: async (sql, params = []) => {
      guard(() => (params.length === 0 && !statements.has(sql) && /;\s*\S/.test(sql) ? db.exec(sql) : prepare(sql).run(params)));
    },
    insertRows: async (table, columns, rows) => guard(() => insertMany(prepareInsert, table, columns, rows)),
    write: async (work) => {
      guard(() => db.exec('BEGIN IMMEDIATE'));
      try {
        const value = await work();
        guard(() => db.exec('COMMIT'));
        return value;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    close: async () => {
      statements.clear();
      inserts.clear();
      db.close();
    },
  };
}
