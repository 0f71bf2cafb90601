/** A value a query binds or returns: the schema keeps to these on both backends. */
export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

/**
 * What the history needs from a database, the same for the embedded file (SQLite through
 * libsql) and PostgreSQL (pg). SQL is written once, with `?` placeholders, in the subset
 * both speak; column aliases are lower case (PostgreSQL folds unquoted names).
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Where it is, for messages (a PostgreSQL URL without its password). */
  readonly shown: string;
  all(sql: string, params?: SqlValue[]): Promise<Row[]>;
  run(sql: string, params?: SqlValue[]): Promise<void>;
  /** Many rows into one table in as few statements as the backend allows. */
  insertRows(table: string, columns: readonly string[], rows: SqlValue[][]): Promise<void>;
  /**
   * One write transaction: the embedded file takes its write lock at once (waiting up to the
   * lock timeout for another writer), PostgreSQL serialises writers on the runs table.
   */
  write<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  readonly?: boolean;
  /** How long a writer waits for another one to finish (embedded file only). */
  lockTimeoutMs?: number;
}

