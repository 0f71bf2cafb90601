import type { Argv, CommandModule } from 'yargs';
import { canonicalJson } from '../../report/sorted.js';
import { renderDiffMarkdown } from '../../report/diff.js';
import {
  diffRecorded, gameHistory, getRun, HistoryError, listRuns, migrate, openStore, readySchema, recordFailedNight, recordRun, resolveRun, search, SCHEMA_VERSION, trend,
  type Store,
} from '../../history/index.js';
import { toolVersion } from '../../run/run-info.js';
import { UsageError } from '../usage-error.js';

/** The nightly default beside the runs: STATE/history.db (the nightly job names it). */
const dbOption = { type: 'string', demandOption: true, describe: 'History database: a file (embedded SQLite) or a postgres:// URL' } as const;

/** Opens, runs `work`, closes; a history failure becomes one line and exit 2. */
export async function withStore<T>(db: string, mode: 'read' | 'write', work: (store: Store) => Promise<T>, lockTimeoutMs?: number): Promise<T> {
  let store: Store | null = null;
  try {
    store = await openStore(db, { readonly: mode === 'read', lockTimeoutMs });
    if (mode === 'read') await readySchema(store, 'read');
    return await work(store);
  } catch (error) {
    if (error instanceof HistoryError) throw new UsageError(error.message, error.code);
    throw error;
  } finally {
    await store?.close();
  }
}

const out = (value: unknown, json: boolean, text: () => string) => process.stdout.write(json ? canonicalJson(value) : text());
const pad = (rows: string[][]) => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n';
};

interface RecordArgs { folders?: string[]; db: string; label?: string; promoted?: boolean; nightly: boolean; failed?: string; lockTimeout: number; quiet: boolean }
const record: CommandModule<object, RecordArgs> = {
  command: 'record [folders..]',
  describe: 'record finished run folders (replay, merge, the nightly job) into the history; a run already there is a no-op',
  builder: (y) =>
    y
      .positional('folders', { type: 'string', array: true, describe: 'run folders' })
      .option('db', dbOption)
      .option('label', { type: 'string', describe: "the run's name in the history (default: the folder's name)" })
      .option('nightly', { type: 'boolean', default: false, describe: 'the run is a night of the nightly job' })
      .option('promoted', { type: 'boolean', describe: 'the nightly job promoted the run to last-good (--no-promoted: it did not)' })
      .option('failed', { type: 'string', describe: 'record a failed night (no run folder) with this reason; needs --label' })
      .option('lock-timeout', { type: 'number', default: 60, describe: 'seconds to wait while another writer holds the embedded file' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress lines' }) as never,
  handler: async (a) => {
    if (!(a.lockTimeout >= 0)) throw new UsageError('--lock-timeout must be a number of seconds ≥ 0');
    const dirs = a.folders ?? [];
    if (a.failed !== undefined) {
      if (!a.label || dirs.length > 0) throw new UsageError('--failed REASON records one failed night: give --label NAME and no run folder');
      await withStore(a.db, 'write', async (store) => {
        const r = await recordFailedNight(store, a.label!, a.failed!);
        process.stdout.write(r.existed ? `history: failed night ${r.label} already recorded as run ${r.run}: nothing written\n` : `history: recorded failed night ${r.label} as run ${r.run}\n`);
      }, a.lockTimeout * 1000);
      return;
    }
    if (dirs.length === 0) throw new UsageError('name at least one run folder to record');
    if (a.label !== undefined && dirs.length > 1) throw new UsageError('--label names one run: give one run folder with it');
    await withStore(a.db, 'write', async (store) => {
      for (const dir of dirs) {
        let next = 50_000;
        const r = await recordRun(store, dir, {
          label: a.label,
          promoted: a.promoted,
          kind: a.nightly ? 'nightly' : undefined,
          onProgress: (lines) => {
            if (a.quiet || lines < next) return;
            next += 50_000;
            process.stderr.write(`history: ${dir}: ${lines} result lines recorded so far\n`);
          },
        });
        if (r.existed) process.stdout.write(`history: ${dir} is already recorded as run ${r.run} (${r.label}): nothing written\n`);
        else process.stdout.write(`history: recorded ${dir} as run ${r.run} (${r.label}, ${r.lines} result lines)\n`);
        if (r.otherVersion !== null) process.stderr.write(`history: note: ${dir} was written by dice-dialects ${r.otherVersion} (this is ${toolVersion()}); recorded with its version\n`);
      }
    }, a.lockTimeout * 1000);
  },
};

const migrateCmd: CommandModule<object, { db: string }> = {
  command: 'migrate',
  describe: `bring a history database to schema ${SCHEMA_VERSION} (writers do it on their own; readers ask for it)`,
  builder: (y) => y.option('db', dbOption) as never,
  handler: async (a) => {
    await withStore(a.db, 'write', async (store) => {
      const from = await migrate(store);
      process.stdout.write(from === SCHEMA_VERSION ? `history: ${a.db} is at schema ${SCHEMA_VERSION} already\n` : `history: ${a.db} migrated from schema ${from} to ${SCHEMA_VERSION}\n`);
    });
  },
};

interface RunsArgs { db: string; json: boolean; dialect?: string; source?: string; since?: string; until?: string; toolVersion?: string; limit: number }
const runsCmd: CommandModule<object, RunsArgs> = {
  command: 'runs',
  describe: 'recorded runs, newest first, with their provenance',
  builder: (y) =>
    y
      .option('db', dbOption)
      .option('json', { type: 'boolean', default: false })
      .option('dialect', { type: 'string', describe: 'runs that judged this dialect' })
      .option('source', { type: 'string', describe: 'runs whose sources name this text' })
      .option('since', { type: 'string', describe: 'from this date (YYYY-MM-DD) or run' })
      .option('until', { type: 'string', describe: 'up to this date or run' })
      .option('tool-version', { type: 'string', describe: 'runs written by this dice-dialects version' })
      .option('limit', { type: 'number', default: 1000 }) as never,
  handler: async (a) => {
    const runs = await withStore(a.db, 'read', (s) => listRuns(s, { dialect: a.dialect, source: a.source, since: a.since, until: a.until, toolVersion: a.toolVersion, limit: a.limit }));
    out({ runs }, a.json, () =>
      runs.length === 0
        ? 'no runs\n'
        : pad([
            ['run', 'label', 'started', 'tool', 'kind', 'outcome', 'results', 'conforming', 'diverging', 'unreadable'],
            ...runs.map((r) => [String(r.run), r.label, r.startedAt ?? '—', r.toolVersion ?? '—', r.kind, r.outcome === 'failed' ? `failed: ${r.failure}` : r.promoted === null ? r.outcome : r.promoted ? 'promoted' : 'not promoted', String(r.lines), String(r.conforming), String(r.diverging), String(r.unreadable)]),
          ]),
    );
  },
};

interface TrendArgs { db: string; json: boolean; dialect?: string; rule?: string; last?: number }
const trendCmd: CommandModule<object, TrendArgs> = {
  command: 'trend',
  describe: 'conforming / diverging / unreadable per run, per dialect and per rule id',
  builder: (y) =>
    y.option('db', dbOption).option('json', { type: 'boolean', default: false }).option('dialect', { type: 'string' }).option('rule', { type: 'string' }).option('last', { type: 'number', describe: 'the newest N runs' }) as never,
  handler: async (a) => {
    const t = await withStore(a.db, 'read', (s) => trend(s, { dialect: a.dialect, rule: a.rule, last: a.last }));
    out(t, a.json, () => {
      const rows = [['dialect', 'run', 'label', 'conforming', 'diverging', 'unreadable']];
      for (const d of t.dialects) for (const p of d.points) rows.push([d.dialect, String(p.run), p.label, String(p.conforming), String(p.diverging), String(p.unreadable)]);
      const text = rows.length > 1 ? pad(rows) : 'no runs\n';
      if (!a.rule) return text;
      const ruleRows = [['rule', 'dialect', 'run', 'games']];
      for (const r of t.rules) for (const p of r.points) ruleRows.push([r.rule, r.dialect, String(p.run), String(p.games)]);
      return `${text}\n${ruleRows.length > 1 ? pad(ruleRows) : `no games with first finding ${a.rule}\n`}`;
    });
  },
};

const gameCmd: CommandModule<object, { db: string; json: boolean; id: string; dialect?: string }> = {
  command: 'game <id>',
  describe: "one game's history across runs, per dialect: only the runs where it changed",
  builder: (y) => y.positional('id', { type: 'string', demandOption: true }).option('db', dbOption).option('json', { type: 'boolean', default: false }).option('dialect', { type: 'string' }) as never,
  handler: async (a) => {
    const g = await withStore(a.db, 'read', (s) => gameHistory(s, String(a.id), { dialect: a.dialect }));
    out(g, a.json, () => {
      const lines = [`game ${g.game}`];
      for (const d of g.dialects) {
        lines.push(`  ${d.dialect} (${d.runs} run(s), ${d.transitions.length} transition(s))`);
        for (const t of d.transitions) {
          const v = (s: typeof t.after) => (s.rule ? `${s.status} ${s.rule}${s.turn !== null ? ` at turn ${s.turn}` : ''}` : s.status);
          lines.push(`    run ${t.after.run} (${t.after.label}): ${t.before ? `${v(t.before)} → ${v(t.after)} [${t.changed.join(', ')}]` : v(t.after)}`);
        }
      }
      return `${lines.join('\n')}\n`;
    });
  },
};

const diffCmd: CommandModule<object, { db: string; json: boolean; runA: string; runB: string }> = {
  command: 'diff <runA> <runB>',
  describe: 'any two recorded runs, record by record, in the classes of `diff`',
  builder: (y) => y.positional('runA', { type: 'string', demandOption: true }).positional('runB', { type: 'string', demandOption: true }).option('db', dbOption).option('json', { type: 'boolean', default: false }) as never,
  handler: async (a) => {
    const d = await withStore(a.db, 'read', async (s) => diffRecorded(s, await resolveRun(s, String(a.runA)), await resolveRun(s, String(a.runB))));
    out(d, a.json, () => renderDiffMarkdown(d, { configChanges: d.configChanges }));
  },
};

const searchCmd: CommandModule<object, { db: string; json: boolean; query: string[]; limit: number }> = {
  command: 'search <query..>',
  describe: 'result rows matching a query: dialect: rule: status: game: source: since: until: changed, joined by AND',
  builder: (y) =>
    y
      .positional('query', { type: 'string', array: true, demandOption: true })
      .option('db', dbOption)
      .option('json', { type: 'boolean', default: false })
      .option('limit', { type: 'number', default: 500 })
      .example("$0 history search 'dialect:dicechess-com rule:enPassant.window changed since:2026-11-01' --db reports/nightly/history.db", '') as never,
  handler: async (a) => {
    const q = a.query.join(' ');
    const r = await withStore(a.db, 'read', (s) => search(s, q, { limit: a.limit }));
    out(r, a.json, () =>
      r.rows.length === 0
        ? 'no rows\n'
        : pad([['run', 'label', 'dialect', 'game', 'status', 'rule', 'source'], ...r.rows.map((x) => [String(x.run), x.label, x.dialect, x.game, x.previousStatus ? `${x.previousStatus} → ${x.status}` : x.status, x.rule ?? '—', x.source ?? '—'])]) +
          (r.truncated ? `(first ${a.limit} rows; --limit shows more)\n` : ''),
    );
  },
};

const runCmd: CommandModule<object, { db: string; json: boolean; run: string }> = {
  command: 'run <run>',
  describe: 'one recorded run: provenance, counts per dialect, dice statistics',
  builder: (y) => y.positional('run', { type: 'string', demandOption: true }).option('db', dbOption).option('json', { type: 'boolean', default: true }) as never,
  handler: async (a) => {
    const r = await withStore(a.db, 'read', async (s) => getRun(s, await resolveRun(s, String(a.run))));
    process.stdout.write(canonicalJson(r));
  },
};

const siteCmd: CommandModule<object, { db: string; out: string }> = {
  command: 'site',
  describe: 'write the runs, trend and latest-diff pages as static files',
  builder: (y) => y.option('db', dbOption).option('out', { type: 'string', demandOption: true, describe: 'folder to write (a new folder, or one this command wrote)' }) as never,
  handler: async (a) => {
    const { writeSite } = await import('../../history/dashboard/site.js');
    const files = await withStore(a.db, 'read', (s) => writeSite(s, a.out));
    for (const f of files) process.stdout.write(`${f}\n`);
  },
};

export const historyCommand: CommandModule<object, object> = {
  command: 'history',
  describe: 'the run history: record runs into a database (SQLite file or PostgreSQL) and query it',
  builder: (y: Argv) =>
    y
      .command(record)
      .command(migrateCmd)
      .command(runsCmd)
      .command(runCmd)
      .command(trendCmd)
      .command(gameCmd)
      .command(diffCmd)
      .command(searchCmd)
      .command(siteCmd)
      .demandCommand(1, 'name a history command: record, migrate, runs, run, trend, game, diff, search or site') as never,
  handler: () => {},
};
