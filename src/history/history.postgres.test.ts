import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../test-support/binaries.js';
import { PG_URL_VAR } from '../test-support/postgres.js';
import { tempDir } from '../test-support/temp-dir.js';
import { BIN, cli, EVIL_ID, makeRuns } from './test-support/runs.js';

/**
 * NEEDS POSTGRESQL: a server named by DICE_DIALECTS_TEST_PG (.ci/run starts one; `npm test`'s
 * global setup starts a throwaway cluster when Debian's binaries are installed). Without one
 * these tests are skipped, and under CI=true that is a failure.
 */
const url = process.env[PG_URL_VAR];
const pg = createRequire(import.meta.url)('pg') as typeof import('pg');

const skip = skipWithout(url ?? null, `a PostgreSQL server (${PG_URL_VAR})`, 'apt-get install postgresql, or set DICE_DIALECTS_TEST_PG=postgres://…');

/** A fresh database in the server for one test, dropped afterwards. */
async function freshDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url!);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const json = (r: { code: number; out: string; err: string }) => {
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
};
/** What may differ between two recordings of the same runs: when they were recorded. */
const withoutRecordedAt = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === 'recordedAt' ? undefined : x)));

describe.skipIf(skip)('history on PostgreSQL (needs a server)', () => {
  let dir: string;
  let runs: string[];
  let file: string;
  let shared: { url: string; drop: () => Promise<void> };
  const dropped: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dir = tempDir('history-pg-');
    runs = makeRuns(dir).runs;
    file = join(dir, 'history.db');
    shared = await freshDatabase(`dd_history_${process.pid}`);
    dropped.push(shared.drop);
    for (const db of [file, shared.url]) {
      const r = cli(['history', 'record', ...runs, '--db', db]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
    }
  }, 180_000);
  afterAll(async () => {
    for (const drop of dropped) await drop();
  });

  it('every query gives the same answer on both backends over the same recorded runs', () => {
    const queries = [
      ['runs'],
      ['runs', '--dialect', 'reference', '--since', '2'],
      ['runs', '--source', 'evil'],
      ['run', '2'],
      ['trend'],
      ['trend', '--dialect', 'reference'],
      ['trend', '--rule', 'start.position'],
      ['diff', '1', '2'],
      ['diff', '2', '3'],
      ['diff', 'night-1', 'latest'],
      ['search', 'status:diverging'],
      ['search', 'dialect:reference changed'],
      ['search', 'changed since:2'],
      ['search', 'rule:* status:unreadable'],
      ['search', `game:"${EVIL_ID.replace(/"/g, '\\"')}"`],
      ['search', 'source:*games* until:1'],
    ];
    const d = json(cli(['history', 'diff', '1', '2', '--db', file, '--json']));
    queries.push(['game', d.broken[0].id], ['game', d.fixed[0].id], ['game', EVIL_ID]);
    for (const q of queries) {
      const a = withoutRecordedAt(json(cli(['history', ...q, '--db', file, '--json'])));
      const b = withoutRecordedAt(json(cli(['history', ...q, '--db', shared.url, '--json'])));
      expect(b, q.join(' ')).toEqual(a);
    }
  }, 180_000);

  it('a newer schema, an unknown run and a syntax error read the same on PostgreSQL', () => {
    expect(cli(['history', 'diff', '1', '99', '--db', shared.url]).err).toMatch(/^dice-dialects: unknown run "99"/);
    expect(cli(['history', 'search', 'until:', '--db', shared.url]).err).toMatch(/until: needs a value at column 7/);
  });

  it('two recorders at once into one PostgreSQL database: both go in', async () => {
    const db = await freshDatabase(`dd_history_two_${process.pid}`);
    dropped.push(db.drop);
    const go = (folder: string) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, [BIN, 'history', 'record', folder, '--db', db.url, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
        p.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([go(runs[0]), go(runs[1]), go(runs[2])])).toEqual([0, 0, 0]);
    const list = json(cli(['history', 'runs', '--db', db.url, '--json'])).runs;
    expect(list.map((r: { run: number }) => r.run)).toEqual([3, 2, 1]);
    expect(list.map((r: { label: string }) => r.label).sort()).toEqual(['night-1', 'night-2', 'night-3']);
  }, 120_000);
});
