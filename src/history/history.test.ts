import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir.js';
import { diffRecorded, gameHistory, getRun, migrate, openStore, SCHEMA_VERSION, schemaVersion } from './index.js';
import { serverLinks } from './dashboard/layout.js';
import { diffPage, gamePage } from './dashboard/pages.js';
import { BIN, cli, EVIL_ID, makeRuns, syntheticRun } from './test-support/runs.js';

const Libsql = createRequire(import.meta.url)('libsql') as typeof import('libsql');

/** A failure the way users see it: one line on stderr, no stack trace. */
function oneLine(r: { code: number; err: string }, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  const lines = r.err.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(r.err).not.toMatch(/\n\s+at /);
  expect(lines[0]).toMatch(pattern);
}

const json = (r: { code: number; out: string; err: string }) => {
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
};

function runCount(db: string): number {
  const d = new Libsql(db);
  try {
    return Number((d.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n);
  } finally {
    d.close();
  }
}

function integrity(db: string): string {
  const d = new Libsql(db);
  try {
    return String((d.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check);
  } finally {
    d.close();
  }
}

describe('history record and queries (embedded file)', () => {
  let dir: string;
  let runs: string[];
  let db: string;
  beforeAll(() => {
    dir = tempDir('history-');
    runs = makeRuns(dir).runs;
    db = join(dir, 'history.db');
    const r = cli(['history', 'record', ...runs, '--db', db]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/recorded .*night-1 as run 1 .*\n.*as run 2 .*\n.*as run 3 /);
  }, 180_000);

  it('records a run once: the same folder again is a no-op with a note', () => {
    const r = cli(['history', 'record', runs[1], '--db', db]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/already recorded as run 2 .*nothing written/);
    expect(runCount(db)).toBe(3);
  });

  it('keeps provenance, per-dialect counts and dice statistics', () => {
    const list = json(cli(['history', 'runs', '--db', db, '--json'])).runs;
    expect(list.map((r: { run: number }) => r.run)).toEqual([3, 2, 1]);
    const summary = JSON.parse(readFileSync(join(runs[0], 'summary.json'), 'utf8'));
    const one = json(cli(['history', 'run', '1', '--db', db]));
    expect(one.toolVersion).toBe(summary.run_info.version);
    expect(one.startedAt).toBe(summary.run_info.startedAt);
    expect(one.sources).toEqual(summary.run_info.sources);
    expect(one.dice).toEqual(summary.dice);
    for (const d of one.dialects) {
      expect(d.sha256).toBe(summary.run_info.dialects[d.dialect].sha256);
      expect({ lines: d.lines, conforming: d.conforming, diverging: d.diverging, unreadable: d.unreadable }).toEqual({ ...summary.byDialect[d.dialect], findings: undefined, faulty: undefined });
    }
    expect(json(cli(['history', 'runs', '--db', db, '--json', '--since', '2', '--until', '2'])).runs.map((r: { run: number }) => r.run)).toEqual([2]);
    expect(json(cli(['history', 'runs', '--db', db, '--json', '--dialect', 'chess'])).runs).toEqual([]);
  });

  it('diff between two recorded runs gives what diff gives on the two folders', () => {
    for (const [a, b] of [[1, 2], [2, 3], [1, 3]]) {
      const recorded = json(cli(['history', 'diff', String(a), String(b), '--db', db, '--json']));
      const folders = cli(['diff', runs[a - 1], runs[b - 1], '--json']);
      expect(recorded).toEqual(JSON.parse(folders.out));
    }
    const d = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
    expect(d.broken.length).toBeGreaterThan(0);
    expect(d.fixed.length).toBeGreaterThan(0);
  });

  it('diff names a configuration change as diff on the folders does, and the dashboard does not call it clean', async () => {
    const corpus = join(dir, 'corpus');
    const plain = join(dir, 'cfg-plain');
    const set = join(dir, 'cfg-set');
    for (const [out, extra] of [[plain, []], [set, ['--set', 'enPassant.window=first-micro-move']]] as const) {
      const r = cli(['replay', corpus, '--dialect', 'reference', ...extra, '--jobs', '1', '--quiet', '--out', out]);
      expect(r.code, r.err).toBe(0);
    }
    const cfg = join(dir, 'cfg.db');
    expect(cli(['history', 'record', plain, set, '--db', cfg]).code).toBe(0);
    const recorded = json(cli(['history', 'diff', '1', '2', '--db', cfg, '--json']));
    expect(recorded.configChanges).toEqual(expect.arrayContaining([expect.stringMatching(/^option dialects .*enPassant\.window=first-micro-move/)]));
    expect(recorded).toEqual(JSON.parse(cli(['diff', plain, set, '--json']).out));
    expect(cli(['history', 'diff', '1', '2', '--db', cfg]).out).toContain('**The configuration changed**');
    const store = await openStore(cfg, { readonly: true });
    try {
      const [a, b] = [await getRun(store, 1), await getRun(store, 2)];
      const page = diffPage(serverLinks, a, b, await diffRecorded(store, 1, 2));
      expect(page).toContain('<div class="banner bad">');
      expect(page).not.toContain('Nothing broke.');
    } finally {
      await store.close();
    }
  });

  it('diff sets records written one by one against the folded line that counted them in the other run', () => {
    type Entry = { id: string; dialect: string; before: { status: string; folded?: string; repeats?: number } | null; after: { status: string; folded?: string; repeats?: number } | null };
    const faults = (list: Entry[]) => list.filter((e) => e.id.startsWith('fault-') || e.id.includes('faults.ndjson'));
    for (const dialect of ['dicechess-com', 'reference']) {
      // Night 1 folded 4 of its 14 broken records, night 2 read all 14: each one paired, none gone.
      const fixed = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
      const mine = (list: Entry[]) => faults(list).filter((e) => e.dialect === dialect);
      expect(mine(fixed.gone)).toEqual([]);
      expect(mine(fixed.new)).toEqual([]);
      const changed = [...mine(fixed.fixed), ...mine(fixed.reclassified)];
      expect(changed.map((e) => e.id).sort()).toEqual(Array.from({ length: 14 }, (_, i) => `fault-${i}`).sort());
      expect(changed.filter((e) => e.before?.folded !== undefined)).toHaveLength(4);
      // Night 3 broke 25 (folding 15): the 14 of night 2 broke, the 11 beyond them are new, counted by their fold.
      const broke = json(cli(['history', 'diff', '2', '3', '--db', db, '--json']));
      expect(mine(broke.broken)).toHaveLength(14);
      expect(mine(broke.broken).filter((e) => e.after?.folded !== undefined)).toHaveLength(4);
      expect(mine(broke.gone)).toEqual([]);
      expect(mine(broke.new).map((e) => e.after?.repeats)).toEqual([11]);
    }
  });

  it('diff reads the same answer through either set of candidate keys', async () => {
    const store = await openStore(db, { readonly: true });
    try {
      for (const [a, b] of [[1, 2], [2, 1], [2, 3], [1, 3], [3, 1]]) {
        const since = await diffRecorded(store, a, b, { keys: 'since' });
        expect(await diffRecorded(store, a, b, { keys: 'range' }), `${a} ${b}`).toEqual(since);
        expect(await diffRecorded(store, a, b), `${a} ${b}`).toEqual(since);
      }
    } finally {
      await store.close();
    }
  });

  it('game shows only the transitions, with what changed', () => {
    const d = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
    const broken = d.broken[0];
    const g = json(cli(['history', 'game', broken.id, '--db', db, '--json', '--dialect', broken.dialect]));
    const t = g.dialects[0].transitions;
    expect(t[0].before).toBeNull();
    expect(t[0].after.run).toBe(1);
    expect(t[1].after.run).toBe(2);
    expect(t[1].before.status).toBe('conforming');
    expect(t[1].changed).toContain('status');
    // An unchanged game has one transition however many runs judged it.
    const unchanged = json(cli(['history', 'search', `dialect:${broken.dialect} status:conforming since:3`, '--db', db, '--json'])).rows.find(
      (r: { game: string }) => !d.broken.concat(d.fixed, d.reclassified).some((e: { id: string }) => e.id === r.game),
    );
    const u = json(cli(['history', 'game', unchanged.game, '--db', db, '--json', '--dialect', broken.dialect]));
    expect(u.dialects[0].runs).toBe(3);
    expect(u.dialects[0].transitions).toHaveLength(1);
    // A game the third night no longer held: its page says it went, in that run.
    const lastLines = new Set(readFileSync(join(runs[2], 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id));
    const goneId = readFileSync(join(runs[1], 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.dialect === 'reference' && !lastLines.has(l.id)).id;
    const went = json(cli(['history', 'game', goneId, '--db', db, '--json', '--dialect', 'reference'])).dialects[0];
    expect(went.runs).toBe(2);
    expect(went.transitions.at(-1)).toMatchObject({ after: { run: 3, status: 'gone' }, changed: ['status'] });
  });

  it('search: terms joined by AND, changed between consecutive runs, the same rows as the results', () => {
    const all = json(cli(['history', 'search', 'dialect:reference AND status:diverging', '--db', db, '--json', '--limit', '100000'])).rows;
    const expected = runs.flatMap((r, i) =>
      readFileSync(join(r, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => ({ run: i + 1, ...JSON.parse(l) })).filter((l) => l.dialect === 'reference' && l.status === 'diverging'),
    );
    expect(all.map((r: { run: number; game: string; rule: string }) => [r.run, r.game, r.rule])).toEqual(expected.map((l) => [l.run, l.id, l.findings[0].rule]));
    const d = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
    // A record the other run counted in a folded line has no row of its own there: search knows it from its own run only.
    const statusChanged = [...d.broken, ...d.fixed, ...d.reclassified].filter((e) => e.before.status !== e.after.status && e.before.folded === undefined && e.after.folded === undefined);
    const changed = json(cli(['history', 'search', 'changed until:2', '--db', db, '--json'])).rows;
    expect(changed.map((r: { game: string; dialect: string }) => `${r.dialect} ${r.game}`).sort()).toEqual(statusChanged.map((e) => `${e.dialect} ${e.id}`).sort());
    const rule = changed.find((r: { rule: string | null }) => r.rule !== null).rule;
    const narrowed = json(cli(['history', 'search', `rule:${rule} changed since:1 until:2`, '--db', db, '--json'])).rows;
    expect(narrowed.length).toBeGreaterThan(0);
    expect(narrowed.every((r: { rule: string }) => r.rule === rule)).toBe(true);
    expect(json(cli(['history', 'search', `game:"${EVIL_ID.replace(/"/g, '\\"')}"`, '--db', db, '--json'])).rows).toHaveLength(4);
    expect(json(cli(['history', 'search', 'source:*evil*', '--db', db, '--json'])).rows).toHaveLength(4);
  });

  it('a query with a syntax error is one line pointing at the position', () => {
    oneLine(cli(['history', 'search', 'dialect:reference foo:bar', '--db', db]), 2, /unknown key "foo:".* at column 19: dialect:reference ▸foo:bar$/);
    oneLine(cli(['history', 'search', 'status:maybe', '--db', db]), 2, /status must be .* at column 8/);
    oneLine(cli(['history', 'search', 'rule:"open', '--db', db]), 2, /unclosed quote at column 6/);
    oneLine(cli(['history', 'search', 'dialect:x OR dialect:y', '--db', db]), 2, /OR is not part of the language/);
  });

  it('unknown run and game ids are one line, exit 2; a label many runs share names none of them', () => {
    oneLine(cli(['history', 'diff', '1', '99', '--db', db]), 2, /unknown run "99"/);
    const shared = join(dir, 'shared-label.db');
    for (const r of [runs[0], runs[1]]) expect(cli(['history', 'record', r, '--db', shared, '--label', 'night']).code).toBe(0);
    oneLine(cli(['history', 'diff', 'night', 'latest', '--db', shared]), 2, /"night" names 2 runs \(1, 2\): name one by its number/);
    oneLine(cli(['history', 'game', 'no-such-game', '--db', db]), 2, /unknown game "no-such-game"/);
  });

  it('trend: one point per run and dialect, from the summaries', () => {
    const t = json(cli(['history', 'trend', '--db', db, '--json']));
    expect(t.dialects.map((d: { dialect: string }) => d.dialect)).toEqual(['dicechess-com', 'reference']);
    for (const d of t.dialects) {
      expect(d.points.map((p: { run: number }) => p.run)).toEqual([1, 2, 3]);
      d.points.forEach((p: { conforming: number }, i: number) => expect(p.conforming).toBe(JSON.parse(readFileSync(join(runs[i], 'summary.json'), 'utf8')).byDialect[d.dialect].conforming));
    }
    for (const r of t.rules) expect(r.points).toHaveLength(3);
  });

  describe('refusals: one line, exit 2, nothing written', () => {
    const refuse = (folder: string, pattern: RegExp) => {
      const before = runCount(db);
      oneLine(cli(['history', 'record', folder, '--db', db]), 2, pattern);
      expect(runCount(db)).toBe(before);
      expect(integrity(db)).toBe('ok');
    };

    it('a folder that is not a run, a missing one, an incomplete one', () => {
      const plain = join(dir, 'plain');
      mkdirSync(plain, { recursive: true });
      refuse(plain, /is not a run folder/);
      refuse(join(dir, 'missing'), /no such folder/);
      const incomplete = join(dir, 'incomplete');
      cpSync(runs[0], incomplete, { recursive: true });
      rmSync(join(incomplete, 'summary.json'));
      refuse(incomplete, /not a complete run folder: summary\.json is missing/);
    });

    it('a damaged results.ndjson, and one that does not match summary.json', () => {
      const damaged = join(dir, 'damaged');
      cpSync(runs[0], damaged, { recursive: true });
      const lines = readFileSync(join(damaged, 'results.ndjson'), 'utf8').split('\n');
      lines[5] = lines[5].slice(0, 20);
      writeFileSync(join(damaged, 'results.ndjson'), lines.join('\n'));
      refuse(damaged, /results\.ndjson:6: not JSON: nothing recorded/);
      const short = join(dir, 'short');
      cpSync(runs[0], short, { recursive: true });
      const all = readFileSync(join(short, 'results.ndjson'), 'utf8').trim().split('\n');
      writeFileSync(join(short, 'results.ndjson'), `${all.slice(0, -1).join('\n')}\n`);
      refuse(short, /summary\.json says .*nothing recorded/);
    });

    it('a database of a newer schema, and a file that is not a database', () => {
      const newer = join(dir, 'newer.db');
      cpSync(db, newer);
      const d = new Libsql(newer);
      d.prepare("UPDATE history_meta SET value = '99' WHERE key = 'schema'").run();
      d.close();
      oneLine(cli(['history', 'record', runs[0], '--db', newer]), 2, new RegExp(`history schema 99, newer than this dice-dialects reads \\(${SCHEMA_VERSION}\\)`));
      oneLine(cli(['history', 'runs', '--db', newer]), 2, /newer than this dice-dialects reads/);
      oneLine(cli(['serve', '--db', newer]), 2, /newer than this dice-dialects reads/);
      const notDb = join(dir, 'not-a-db.db');
      writeFileSync(notDb, 'hello, this is text and no SQLite file at all, long enough to have a header of sorts..........');
      oneLine(cli(['history', 'runs', '--db', notDb]), 2, /not a history database/);
    });

    it('a database URL that does not connect', () => {
      oneLine(cli(['history', 'runs', '--db', 'postgres://nobody:secret@127.0.0.1:1/none']), 2, /cannot connect to postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/);
      expect(cli(['history', 'runs', '--db', 'postgres://nobody:secret@127.0.0.1:1/none']).err).not.toContain('secret');
    });
  });

  it('a run from another tool version is recorded, with its version', () => {
    const other = join(dir, 'other-version');
    cpSync(runs[0], other, { recursive: true });
    const s = JSON.parse(readFileSync(join(other, 'summary.json'), 'utf8'));
    s.run_info.version = '0.0.9';
    delete s.matrix;
    s.later_field = { something: 'new' };
    writeFileSync(join(other, 'summary.json'), JSON.stringify(s));
    const db2 = join(dir, 'versions.db');
    const r = cli(['history', 'record', other, '--db', db2]);
    expect(r.code).toBe(0);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(/note: .* was written by dice-dialects 0\.0\.9 \(this is .*\); recorded with its version$/)]);
    expect(json(cli(['history', 'runs', '--db', db2, '--json', '--tool-version', '0.0.9'])).runs[0].toolVersion).toBe('0.0.9');
  });

  it('migrates a database written by the first schema version', async () => {
    const old = join(dir, 'v1.db');
    const store = await openStore(old);
    await migrate(store, 1);
    expect(await schemaVersion(store)).toBe(1);
    // A run as the first version wrote it: no outcome, failure or promoted columns.
    await store.run(
      "INSERT INTO runs (run, run_key, label, folder, kind, tool_version, started_at, duration_ms, recorded_at, results_sha256, sharded, options, sources, dice, lines, conforming, diverging, unreadable) VALUES (1, 'k1', 'old-night', NULL, 'replay', '0.0.1', '2026-01-01T00:00:00.000Z', 10, '2026-01-01T00:00:01.000Z', NULL, 0, '{}', '[]', NULL, 0, 0, 0, 0)",
    );
    await store.close();
    oneLine(cli(['history', 'runs', '--db', old]), 2, /history schema 1, older .* history migrate/);
    const r = cli(['history', 'record', runs[0], '--db', old]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/as run 2 /);
    const list = json(cli(['history', 'runs', '--db', old, '--json'])).runs;
    expect(list.map((x: { label: string; outcome: string }) => [x.label, x.outcome])).toEqual([
      ['night-1', 'recorded'],
      ['old-night', 'recorded'],
    ]);
    const again = await openStore(old, { readonly: true });
    expect(await schemaVersion(again)).toBe(SCHEMA_VERSION);
    await again.close();
  });

  it('migrates a schema 2 database of result rows into transitions: every query answers as if recorded anew', async () => {
    // Schema 2 kept a row per (run, result line): build one from the same runs as `db`.
    const old = join(dir, 'v2.db');
    const store = await openStore(old);
    await migrate(store, 2);
    const fresh = new Libsql(db);
    try {
      for (const table of ['runs', 'run_dialects', 'run_rules']) {
        const rows = fresh.prepare(`SELECT * FROM ${table}`).all() as Record<string, string | number | null>[];
        const columns = Object.keys(rows[0]).filter((c) => c !== 'results');
        await store.insertRows(table, columns, rows.map((r) => columns.map((c) => r[c])));
      }
    } finally {
      fresh.close();
    }
    const columns = ['run', 'line', 'game', 'dialect', 'status', 'rule', 'turn', 'micro_move', 'dfen', 'recorded', 'message', 'source', 'idx', 'turns', 'repeats'];
    for (const [i, r] of runs.entries()) {
      const lines = readFileSync(join(r, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      await store.insertRows(
        'results',
        columns,
        lines.map((l, n) => {
          const f = l.findings[0];
          return [i + 1, n + 1, l.id, l.dialect, l.status, f?.rule ?? null, f?.turn ?? null, f?.microMove ?? null, f?.dfen ?? null, f ? f.recorded.join(' ') : null, f?.message ?? null, l.source ?? null, l.index, l.turns ?? null, l.repeats ?? null];
        }),
      );
    }
    await store.close();
    oneLine(cli(['history', 'runs', '--db', old]), 2, /history schema 2, older .* history migrate/);
    expect(cli(['history', 'migrate', '--db', old]).code).toBe(0);
    const d = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
    const queries = [['runs'], ['trend'], ['diff', '1', '2'], ['diff', '3', '1'], ['game', d.broken[0].id], ['game', EVIL_ID], ['search', 'status:diverging'], ['search', 'changed'], ['search', 'dialect:reference since:2']];
    // Schema 2's rows held no turn starts: a run recorded before schema 5 has none.
    const without = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'recordedAt' || k === 'turnDfen' ? undefined : x)));
    for (const q of queries) expect(without(json(cli(['history', ...q, '--db', old, '--json']))), q.join(' ')).toEqual(without(json(cli(['history', ...q, '--db', db, '--json']))));
  });

  it('migrates a schema 3 database (no index of the keys by their latest run, no turn starts): every query answers the same, turn starts apart', () => {
    // Schema 4 adds current_run, schema 5 turn_dfen: a copy of the recorded database without them is what schema 3 wrote.
    const old = join(dir, 'v3.db');
    const fresh = new Libsql(db);
    try {
      fresh.exec(`VACUUM INTO '${old.replace(/'/g, "''")}'`);
    } finally {
      fresh.close();
    }
    const v3 = new Libsql(old);
    v3.exec("DROP INDEX current_run; DROP INDEX transitions_folded; ALTER TABLE transitions DROP COLUMN turn_dfen; UPDATE history_meta SET value = '3' WHERE key = 'schema'");
    v3.close();
    oneLine(cli(['history', 'runs', '--db', old]), 2, /history schema 3, older .* history migrate/);
    expect(cli(['history', 'migrate', '--db', old]).code).toBe(0);
    const indexes = new Libsql(old);
    expect((indexes.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'current_run'").all() as unknown[]).length).toBe(1);
    indexes.close();
    const d = json(cli(['history', 'diff', '1', '2', '--db', db, '--json']));
    const queries = [['runs'], ['trend'], ['diff', '1', '2'], ['diff', '1', '3'], ['diff', '3', '2'], ['game', d.broken[0].id], ['search', 'changed'], ['search', 'dialect:reference since:2']];
    const without = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'turnDfen' ? undefined : x)));
    for (const q of queries) expect(without(json(cli(['history', ...q, '--db', old, '--json']))), q.join(' ')).toEqual(without(json(cli(['history', ...q, '--db', db, '--json']))));
  });

  it("keeps a finding's turn start, as results.ndjson has it: the game's page gives its check command", async () => {
    // The planted state maps hold turns that stop with dice unspent: findings past the turn's first micro-move.
    const run = join(dir, 'planted');
    const r = cli(['replay', 'corpora/samples/planted/dicechess-com.state-maps.ndjson.gz', '--dialect', 'dicechess-com', '--jobs', '1', '--quiet', '--out', run]);
    expect(r.code, r.err).toBe(0);
    const planted = join(dir, 'planted.db');
    expect(cli(['history', 'record', run, '--db', planted]).code).toBe(0);
    const mid = readFileSync(join(run, 'results.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text))
      .filter((l) => l.findings[0]?.turnDfen !== undefined);
    expect(mid.length).toBeGreaterThan(0);
    for (const l of mid) {
      const g = json(cli(['history', 'game', l.id, '--db', planted, '--json', '--dialect', l.dialect]));
      expect(g.dialects[0].transitions[0].after.turnDfen, l.id).toBe(l.findings[0].turnDfen);
    }
    const fewer = mid.find((l) => l.findings[0].rule === 'maximum.fewer-dice');
    const store = await openStore(planted, { readonly: true });
    try {
      const page = gamePage(serverLinks, await gameHistory(store, fewer.id), new Map(), new Map(), 1, fewer.dialect);
      expect(page).toContain(`--dfen &#34;${fewer.findings[0].turnDfen}&#34; --turn ${fewer.findings[0].recorded.join(',')}`);
    } finally {
      await store.close();
    }
  });

  it('a locked embedded file: the second writer waits, then fails with one line; the file stays sound', () => {
    const locked = join(dir, 'locked.db');
    expect(cli(['history', 'record', runs[0], '--db', locked]).code).toBe(0);
    const holder = new Libsql(locked);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const t0 = Date.now();
      oneLine(cli(['history', 'record', runs[1], '--db', locked, '--lock-timeout', '1']), 2, /is locked by another writer; waited 1 s .*nothing written/);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(runCount(locked)).toBe(1);
    expect(integrity(locked)).toBe('ok');
  });

  it('two recorders at once into one embedded file: the second waits for the first, both go in', async () => {
    const shared = join(dir, 'shared.db');
    expect(cli(['history', 'migrate', '--db', shared]).code).toBe(0);
    const go = (folder: string) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'history', 'record', folder, '--db', shared, '--quiet'], { stdio: 'ignore' });
        p.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([go(runs[0]), go(runs[1])])).toEqual([0, 0]);
    expect(runCount(shared)).toBe(2);
    expect(integrity(shared)).toBe('ok');
  });

  it('kill -9 while recording leaves the database as it was', async () => {
    const big = join(dir, 'big');
    await syntheticRun(runs[0], big, 400_000);
    const killed = join(dir, 'killed.db');
    expect(cli(['history', 'record', runs[0], '--db', killed]).code).toBe(0);
    const p = spawn(process.execPath, [BIN, 'history', 'record', big, '--db', killed], { stdio: ['ignore', 'ignore', 'pipe'] });
    // The recorder says how far it got: once it has written rows, kill it where it stands.
    await new Promise<void>((resolve, reject) => {
      let err = '';
      p.stderr.on('data', (c) => {
        err += String(c);
        if (/result lines recorded so far/.test(err)) resolve();
      });
      p.on('exit', () => reject(new Error(`the recorder ended before it was killed: ${err}`)));
    });
    const exited = new Promise((resolve) => p.on('exit', (_code, signal) => resolve(signal)));
    p.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(killed)).toBe(true);
    expect(integrity(killed)).toBe('ok');
    expect(runCount(killed)).toBe(1);
    const d = new Libsql(killed);
    expect(Number((d.prepare('SELECT count(*) AS n FROM transitions WHERE run <> 1').get() as { n: number }).n)).toBe(0);
    d.close();
    const again = cli(['history', 'record', big, '--db', killed, '--quiet']);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/as run 2 \(big, 400000 result lines\)/);
  }, 180_000);
});
