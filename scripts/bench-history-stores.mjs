#!/usr/bin/env node
// Compares embedded stores for the history database on its workload: N result rows inserted
// in one transaction, then the grouped queries the dashboard runs (per dialect × status, per
// rule). One whole process per candidate, so start-up and module loading count.
//   node scripts/bench-history-stores.mjs [ROWS] [DIR_WITH_CANDIDATES]
// DIR_WITH_CANDIDATES holds node_modules with libsql, @duckdb/node-api, @electric-sql/pglite
// and sql.js (they are not the project's dependencies, except libsql).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const rows = Number(process.argv[2] ?? 200_000);
const dir = process.argv[3] ?? process.cwd();

const common = `
const N = ${rows};
const dialects = ['a','b','c','d','e','f'];
const rules = ['enPassant.window','castling.rook','dice.allowed-flag','cube.not-allowed', null];
function row(i) { const d = dialects[i % 6]; const g = Math.floor(i / 6); const st = (g * 7 + i) % 3 === 0 ? 'conforming' : 'diverging';
  return [1, 'game-' + g, d, st, st === 'conforming' ? null : rules[g % 5], g % 40, 'corpus.ndjson', g]; }
const t0 = performance.now();
`;
const candidates = {
  libsql: `
const Database = require('libsql');
const db = new Database(process.env.DB + '.sqlite');
db.exec('PRAGMA journal_mode=WAL; CREATE TABLE r(run INTEGER, game TEXT, dialect TEXT, status TEXT, rule TEXT, turn INTEGER, source TEXT, idx INTEGER)');
const ins = db.prepare('INSERT INTO r VALUES (?,?,?,?,?,?,?,?)');
db.exec('BEGIN'); for (let i = 0; i < N; i++) ins.run(row(i)); db.exec('COMMIT');
const t1 = performance.now();
const a = db.prepare('SELECT dialect, status, count(*) n FROM r GROUP BY dialect, status').all();
const b = db.prepare('SELECT rule, dialect, count(*) n FROM r WHERE rule IS NOT NULL GROUP BY rule, dialect').all();
console.log(JSON.stringify({ insert: t1 - t0, group: performance.now() - t1, groups: a.length + b.length }));`,
  'sql.js': `
const initSqlJs = require('sql.js');
initSqlJs().then((SQL) => { const db = new SQL.Database();
db.exec('CREATE TABLE r(run INTEGER, game TEXT, dialect TEXT, status TEXT, rule TEXT, turn INTEGER, source TEXT, idx INTEGER)');
const ins = db.prepare('INSERT INTO r VALUES (?,?,?,?,?,?,?,?)');
db.exec('BEGIN'); for (let i = 0; i < N; i++) ins.run(row(i)); db.exec('COMMIT');
require('fs').writeFileSync(process.env.DB + '.sqljs', db.export());
const t1 = performance.now();
const a = db.exec('SELECT dialect, status, count(*) n FROM r GROUP BY dialect, status')[0].values;
const b = db.exec('SELECT rule, dialect, count(*) n FROM r WHERE rule IS NOT NULL GROUP BY rule, dialect')[0].values;
console.log(JSON.stringify({ insert: t1 - t0, group: performance.now() - t1, groups: a.length + b.length })); });`,
  '@duckdb/node-api': `
(async () => { const { DuckDBInstance } = require('@duckdb/node-api');
const inst = await DuckDBInstance.create(process.env.DB + '.duckdb'); const c = await inst.connect();
await c.run('CREATE TABLE r(run INTEGER, game VARCHAR, dialect VARCHAR, status VARCHAR, rule VARCHAR, turn INTEGER, source VARCHAR, idx INTEGER)');
const ap = await c.createAppender('r');
for (let i = 0; i < N; i++) { const v = row(i); ap.appendInteger(v[0]); ap.appendVarchar(v[1]); ap.appendVarchar(v[2]); ap.appendVarchar(v[3]); v[4] === null ? ap.appendNull() : ap.appendVarchar(v[4]); ap.appendInteger(v[5]); ap.appendVarchar(v[6]); ap.appendInteger(v[7]); ap.endRow(); }
ap.closeSync();
const t1 = performance.now();
const a = (await c.runAndReadAll('SELECT dialect, status, count(*) n FROM r GROUP BY dialect, status')).getRows();
const b = (await c.runAndReadAll('SELECT rule, dialect, count(*) n FROM r WHERE rule IS NOT NULL GROUP BY rule, dialect')).getRows();
console.log(JSON.stringify({ insert: t1 - t0, group: performance.now() - t1, groups: a.length + b.length })); })();`,
  '@electric-sql/pglite': `
(async () => { const { PGlite } = require('@electric-sql/pglite');
const db = new PGlite(process.env.DB + '.pglite');
await db.exec('CREATE TABLE r(run INTEGER, game TEXT, dialect TEXT, status TEXT, rule TEXT, turn INTEGER, source TEXT, idx INTEGER)');
await db.transaction(async (tx) => { for (let i = 0; i < N; i += 1000) { const vals = []; const ps = [];
  for (let j = i; j < Math.min(N, i + 1000); j++) { const v = row(j); ps.push('(' + v.map((_, k) => '$' + (vals.length + k + 1)).join(',') + ')'); vals.push(...v); }
  await tx.query('INSERT INTO r VALUES ' + ps.join(','), vals); } });
const t1 = performance.now();
const a = (await db.query('SELECT dialect, status, count(*) n FROM r GROUP BY dialect, status')).rows;
const b = (await db.query('SELECT rule, dialect, count(*) n FROM r WHERE rule IS NOT NULL GROUP BY rule, dialect')).rows;
await db.close();
console.log(JSON.stringify({ insert: t1 - t0, group: performance.now() - t1, groups: a.length + b.length })); })();`,
};

console.log(`${rows} rows, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} (${process.platform}, node ${process.version})`);
for (const [name, body] of Object.entries(candidates)) {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const file = join(tmp, 'bench.cjs');
  writeFileSync(file, common + body);
  const start = performance.now();
  try {
    const out = execFileSync(process.execPath, [file], { cwd: dir, env: { ...process.env, DB: join(tmp, 'db'), NODE_PATH: join(dir, 'node_modules') }, encoding: 'utf8' });
    const whole = performance.now() - start;
    const r = JSON.parse(out.trim().split('\n').pop());
    console.log(`${name.padEnd(22)} whole process ${(whole / 1000).toFixed(2)} s  (insert ${(r.insert / 1000).toFixed(2)} s, grouped queries ${r.group.toFixed(0)} ms, ${r.groups} groups)`);
  } catch (e) {
    console.log(`${name.padEnd(22)} failed: ${String(e.message).split('\n')[0]}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
