import { HistoryError } from './errors.js';
import type { Store } from './store-types.js';
import { storeResults, type ResultRow } from './transitions.js';

/** A migration: statements, or statements and then work on the data (run in the same transaction). */
type Migration = readonly string[] | { readonly sql: readonly string[]; readonly data: (store: Store) => Promise<void> };

/** Schema 2's result rows of one run, in its order, as the batches storeResults takes (pages of the (run, line) index). */
async function* oldResults(store: Store, run: number): AsyncGenerator<ResultRow[]> {
  const PAGE = 20_000;
  for (let from = 0; ; from += PAGE) {
    const rows = await store.all('SELECT game, dialect, status, rule, turn, micro_move, dfen, recorded, message, source, idx, turns, repeats FROM results WHERE run = ? AND line > ? AND line <= ? ORDER BY line', [run, from, from + PAGE]);
    yield rows.map(
      (r): ResultRow => ({
        game: String(r.game), dialect: String(r.dialect), status: String(r.status), rule: r.rule === null ? null : String(r.rule), turn: r.turn === null ? null : Number(r.turn),
        microMove: r.micro_move === null ? null : Number(r.micro_move), dfen: r.dfen === null ? null : String(r.dfen), turnDfen: null, recorded: r.recorded === null ? null : String(r.recorded),
        message: r.message === null ? null : String(r.message), source: r.source === null ? null : String(r.source), index: Number(r.idx), turns: r.turns === null ? null : Number(r.turns),
        repeats: r.repeats === null ? null : Number(r.repeats),
      }),
    );
    if (rows.length < PAGE) return;
  }
}

/** Schema 3: every run's result rows, oldest run first, become transitions; the results table goes. */
async function resultsToTransitions(store: Store): Promise<void> {
  await store.run('UPDATE run_dialects SET results = (SELECT count(*) FROM results x WHERE x.run = run_dialects.run AND x.dialect = run_dialects.dialect)');
  const dialects = new Map<number, string[]>();
  for (const d of await store.all('SELECT run, dialect FROM run_dialects ORDER BY run, dialect')) dialects.set(Number(d.run), [...(dialects.get(Number(d.run)) ?? []), String(d.dialect)]);
  for (const [run, judged] of dialects) await storeResults(store, run, judged, oldResults(store, run), undefined, 3);
  await store.run('DROP TABLE results');
}

/**
 * The history's schema, versioned: migration N takes a database from version N − 1 to N, in
 * one transaction. Every statement is the same on SQLite and PostgreSQL. A database written
 * by a newer tool is refused (its readers would misread it); an older one is migrated when
 * a writer opens it (`history record`, `history migrate`) and refused by readers until then.
 */
export const MIGRATIONS: readonly Migration[] = [
  // 1: runs with provenance, per-dialect and per-rule counts, one row per (game, dialect) result.
  [
    'CREATE TABLE history_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    `CREATE TABLE runs (
      run INTEGER PRIMARY KEY,
      run_key TEXT NOT NULL UNIQUE,
      label TEXT NOT NULL,
      folder TEXT,
      kind TEXT NOT NULL,
      tool_version TEXT,
      started_at TEXT,
      duration_ms INTEGER,
      recorded_at TEXT NOT NULL,
      results_sha256 TEXT,
      sharded INTEGER NOT NULL,
      options TEXT NOT NULL,
      sources TEXT NOT NULL,
      dice TEXT,
      lines INTEGER NOT NULL,
      conforming INTEGER NOT NULL,
      diverging INTEGER NOT NULL,
      unreadable INTEGER NOT NULL)`,
    `CREATE TABLE run_dialects (
      run INTEGER NOT NULL,
      dialect TEXT NOT NULL,
      file TEXT,
      sha256 TEXT,
      overrides TEXT,
      lines INTEGER NOT NULL,
      conforming INTEGER NOT NULL,
      diverging INTEGER NOT NULL,
      unreadable INTEGER NOT NULL,
      PRIMARY KEY (run, dialect))`,
    `CREATE TABLE run_rules (
      run INTEGER NOT NULL,
      dialect TEXT NOT NULL,
      rule TEXT NOT NULL,
      games INTEGER NOT NULL,
      findings INTEGER NOT NULL,
      PRIMARY KEY (run, dialect, rule))`,
    `CREATE TABLE results (
      run INTEGER NOT NULL,
      line INTEGER NOT NULL,
      game TEXT NOT NULL,
      dialect TEXT NOT NULL,
      status TEXT NOT NULL,
      rule TEXT,
      turn INTEGER,
      micro_move INTEGER,
      dfen TEXT,
      recorded TEXT,
      message TEXT,
      source TEXT,
      idx INTEGER NOT NULL,
      turns INTEGER,
      repeats INTEGER)`,
    'CREATE INDEX results_run ON results (run, line)',
    'CREATE INDEX results_game ON results (game, dialect, run)',
  ],
  // 2: the nightly job's outcome (promoted or not, a failed night) on every run.
  [
    "ALTER TABLE runs ADD COLUMN outcome TEXT NOT NULL DEFAULT 'recorded'",
    'ALTER TABLE runs ADD COLUMN failure TEXT',
    'ALTER TABLE runs ADD COLUMN promoted INTEGER',
  ],
  // 3: only transitions per (game, dialect, occurrence), not a row per run, and each one's
  // current state (transitions.ts);
  // run_dialects.results: the run's result lines of the dialect (what a diff counts).
  {
    sql: [
      `CREATE TABLE current (
        key_id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        dialect TEXT NOT NULL,
        occ INTEGER NOT NULL,
        run INTEGER NOT NULL,
        present INTEGER NOT NULL,
        status TEXT,
        digest BIGINT NOT NULL,
        prev_status TEXT,
        prev_run INTEGER)`,
      'CREATE UNIQUE INDEX current_game ON current (game, dialect, occ)',
      `CREATE TABLE transitions (
        key_id INTEGER NOT NULL,
        run INTEGER NOT NULL,
        next_run INTEGER NOT NULL,
        line INTEGER,
        present INTEGER NOT NULL,
        status TEXT,
        rule TEXT,
        turn INTEGER,
        micro_move INTEGER,
        dfen TEXT,
        recorded TEXT,
        message TEXT,
        source TEXT,
        idx INTEGER,
        turns INTEGER,
        repeats INTEGER,
        digest BIGINT NOT NULL,
        prev_status TEXT,
        prev_run INTEGER,
        PRIMARY KEY (key_id, run))`,
      'CREATE INDEX transitions_run ON transitions (run, line)',
      'CREATE INDEX transitions_line ON transitions (line)',
      'ALTER TABLE run_dialects ADD COLUMN results INTEGER NOT NULL DEFAULT 0',
    ],
    data: resultsToTransitions,
  },
  // 4: the keys by their latest transition's run: a diff reads the keys that changed since its
  // older run (queries/diff.ts), not every transition in between.
  ['CREATE INDEX current_run ON current (run)'],
  // 5: a finding's turn start (results' turnDfen), for the check command of a finding past the
  // turn's first micro-move (not in the digest: a row recorded before it is not a change); the
  // folded lines by run, which a diff reads whole (queries/diff.ts).
  ['ALTER TABLE transitions ADD COLUMN turn_dfen TEXT', 'CREATE INDEX transitions_folded ON transitions (run) WHERE repeats IS NOT NULL'],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

async function hasMeta(store: Store): Promise<boolean> {
  const rows =
    store.kind === 'sqlite'
      ? await store.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'history_meta'")
      : // The catalog table itself, read with the statement's snapshot (to_regclass reads a cache that an advisory lock does not refresh).
        await store.all("SELECT tablename AS name FROM pg_catalog.pg_tables WHERE tablename = 'history_meta' AND schemaname = current_schema()");
  return rows.length > 0 && rows[0].name !== null;
}

/** The schema version of the database (0: empty). */
export async function schemaVersion(store: Store): Promise<number> {
  if (!(await hasMeta(store))) {
    if (store.kind === 'sqlite') {
      const tables = await store.all("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'");
      if (Number(tables[0].n) > 0) throw new HistoryError('history-not-a-database', `${store.shown} is an SQLite file but not a history database (it has other tables)`);
    }
    return 0;
  }
  const rows = await store.all("SELECT value FROM history_meta WHERE key = 'schema'");
  const v = Number(rows[0]?.value);
  if (!Number.isInteger(v) || v < 1) throw new HistoryError('history-not-a-database', `${store.shown}: history_meta holds no schema version`);
  return v;
}

/** Migrations from the database's version up to `target`, each in its own transaction (tests stop at 1). */
export async function migrate(store: Store, target = SCHEMA_VERSION): Promise<number> {
  return store.write(async () => {
    // Read again inside the write lock: another writer may have migrated meanwhile.
    const from = await schemaVersion(store);
    if (from > SCHEMA_VERSION) throw newer(store, from);
    for (let v = from + 1; v <= target; v++) {
      const m = MIGRATIONS[v - 1];
      for (const sql of 'sql' in m ? m.sql : m) await store.run(sql);
      if ('data' in m) await m.data(store);
      if (v === 1) await store.run("INSERT INTO history_meta (key, value) VALUES ('schema', '1')");
      else await store.run("UPDATE history_meta SET value = ? WHERE key = 'schema'", [String(v)]);
    }
    return from;
  });
}

const newer = (store: Store, v: number) =>
  new HistoryError('history-schema-newer', `${store.shown} has history schema ${v}, newer than this dice-dialects reads (${SCHEMA_VERSION}): use a newer dice-dialects; nothing was changed`);

/** Opens the schema for use: writers migrate an older one, readers refuse it; a newer one is refused always. */
export async function readySchema(store: Store, mode: 'write' | 'read'): Promise<void> {
  const v = await schemaVersion(store);
  if (v > SCHEMA_VERSION) throw newer(store, v);
  if (v === SCHEMA_VERSION) return;
  if (mode === 'write') {
    await migrate(store);
    return;
  }
  if (v === 0) throw new HistoryError('history-not-a-database', `${store.shown} holds no history yet: record a run into it first (dice-dialects history record RUN_DIR --db …)`);
  throw new HistoryError('history-schema-older', `${store.shown} has history schema ${v}, older than this dice-dialects reads (${SCHEMA_VERSION}): run dice-dialects history migrate --db … first`);
}
