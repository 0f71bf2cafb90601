import { createRequire } from 'node:module';
import { HistoryError } from './errors.js';
import type { OpenOptions, Row, SqlValue, Store } from './store-types.js';

type Pg = typeof import('pg');

/** The URL as messages show it: never its password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** `?` placeholders as PostgreSQL's `$1, $2…` (the history's SQL holds no `?` inside literals). */
export function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/** PostgreSQL errors in the history's words. */
function pgFailure(error: unknown, shown: string): unknown {
  const e = error as { code?: string; message?: string };
  if (e?.code === '25006') return new HistoryError('history-connect', `${shown} is opened read-only: ${e.message}`);
  if (typeof e?.code === 'string' && /^(08|28|3D|57P)/.test(e.code)) return new HistoryError('history-connect', `cannot use ${shown}: ${e.message}`);
  if (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code)) return new HistoryError('history-connect', `cannot connect to ${shown}: ${e.code}${e.message ? ` (${e.message})` : ''}`);
  return error;
}

/** A shared history in PostgreSQL: one connection, the same schema and SQL as the embedded file. */
export async function openPostgres(url: string, opts: OpenOptions): Promise<Store> {
  const shown = shownUrl(url);
  const pg = createRequire(import.meta.url)('pg') as Pg;
  // Counts come back as bigint (text); the history's numbers fit a double.
  const types = {
    getTypeParser: (oid: number, format?: string) => (oid === 20 || oid === 1700 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as never)),
  };
  const client = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: 10_000, application_name: 'dice-dialects history' });
  // A dropped connection later surfaces through the failing query, not as an unhandled event.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query("SET client_min_messages = 'warning'");
    if (opts.readonly) await client.query('SET default_transaction_read_only = on');
  } catch (error) {
    await client.end().catch(() => {});
    const failure = pgFailure(error, shown);
    throw failure instanceof HistoryError ? failure : new HistoryError('history-connect', `cannot connect to ${shown}: ${(error as Error).message}`);
  }
  const query = async (sql: string, params: SqlValue[] = []) => {
    try {
      return await client.query(numbered(sql), params);
    } catch (error) {
      throw pgFailure(error, shown);
    }
  };
  return {
    kind: 'postgres',
    shown,
    all: async (sql, params) => (await query(sql, params)).rows as Row[],
    run: async (sql, params) => {
      await query(sql, params);
    },
    insertRows: async (table, columns, rows) => {
      // PostgreSQL binds at most 65,535 parameters a statement.
      const per = Math.max(1, Math.floor(60_000 / columns.length));
      for (let i = 0; i < rows.length; i += per) {
        const chunk = rows.slice(i, i + per);
        const values: SqlValue[] = [];
        const tuples = chunk.map((row) => {
          const start = values.length;
          values.push(...row);
          return `(${row.map((_, k) => `$${start + k + 1}`).join(', ')})`;
        });
        try {
          await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, values);
        } catch (error) {
          throw pgFailure(error, shown);
        }
      }
    },
    write: async (work) => {
      await query('BEGIN');
      // Writers take turns (run numbers are max + 1, migrations run once): an advisory lock needs no table yet.
      await query('SELECT pg_advisory_xact_lock(25025)');
      try {
        const value = await work();
        await query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    close: async () => {
      await client.end().catch(() => {});
    },
  };
}
