import { HistoryError } from './errors.js';
import type { OpenOptions, Store } from './store-types.js';

export type { OpenOptions, Row, SqlValue, Store } from './store-types.js';

export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db);

/** A database by name: a postgres:// URL, else a file path for the embedded store. */
export async function openStore(db: string, opts: OpenOptions = {}): Promise<Store> {
  if (db.trim() === '') throw new HistoryError('history-usage', '--db is empty: give a file path or a postgres:// URL');
  if (isPostgresUrl(db)) return (await import('./postgres.js')).openPostgres(db, opts);
  return (await import('./sqlite.js')).openSqlite(db, opts);
}
