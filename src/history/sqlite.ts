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
    insertRows: async (table, columns, rows) => {
      // Many rows a statement: each call into the engine costs more than the row it inserts.
      const per = Math.max(1, Math.min(200, Math.floor(30_000 / columns.length)));
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      const sql = (n: number) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: n }, () => tuple).join(', ')}`;
      guard(() => {
        // The parameters of a chunk in one preallocated array: slice + flat per chunk cost
        // about a third of the engine's own time at millions of rows.
        const params: SqlValue[] = new Array(per * columns.length);
        for (let i = 0; i < rows.length; i += per) {
          const n = Math.min(per, rows.length - i);
          if (n < per) params.length = n * columns.length;
          let k = 0;
          for (let r = i; r < i + n; r++) {
            const row = rows[r];
            for (let c = 0; c < columns.length; c++) params[k++] = row[c];
          }
          prepare(sql(n)).run(params);
        }
      });
    },
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
      db.close();
    },
  };
}
