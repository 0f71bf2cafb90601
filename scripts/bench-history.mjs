#!/usr/bin/env node
// The run history at scale, whole processes on this machine (npm run build first):
//   A. `history record` of one run of GAMES games × DIALECTS dialects into a fresh embedded file.
//   B. a simulated history of NIGHTS nightly runs of YEAR_GAMES games × YEAR_DIALECTS dialects
//      (stored as the history stores every run: a transition per (game, dialect) whose result
//      changed since the night before; 1 game in 97 flips on 2 nights in 5), then `serve` over
//      it: each dashboard page's p95 over REQUESTS requests, serve's peak RSS, the database's
//      size on disk.
// Usage: node scripts/bench-history.mjs [--games 1000000] [--dialects 3] [--nights 365]
//        [--year-games 50000] [--year-dialects 6] [--requests 50] [--skip-record] [--skip-year] [--keep DIR]
//        [--reuse-year] (with --keep DIR: measure the pages over the year stored there before)
// B's nights go in through the history's own recording code (storeResults, one transaction per
// night, as `history record` does), from generated lines, not result files: writing and parsing
// the files would measure the JSON reader, which A measures.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync, mkdirSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const bin = join(root, 'bin/dice-dialects.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const flag = (name) => process.argv.includes(`--${name}`);
const games = arg('games', 1_000_000);
const dialects = arg('dialects', 3);
const nights = arg('nights', 365);
const yearGames = arg('year-games', 50_000);
const yearDialects = arg('year-dialects', 6);
const requests = arg('requests', 50);
const keepIdx = process.argv.indexOf('--keep');
const work = keepIdx > 0 ? resolve(process.argv[keepIdx + 1]) : mkdtempSync(join(tmpdir(), 'bench-history-'));
mkdirSync(work, { recursive: true });
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
const dbSize = (db) => ['', '-wal', '-shm'].reduce((s, x) => s + (existsSync(db + x) ? statSync(db + x).size : 0), 0);
const DIALECTS = ['reference', 'dicechess-com', 'beturanga', 'chess', 'wikipedia-two-dice', 'brainking-one-die'];
const RULES = ['enPassant.window', 'castling.needs-king-and-rook-dice', 'dice.allowed-flag', 'maximum.fewer-dice', 'cube.not-allowed'];
const DFEN = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 pnb';
// A game's status under a dialect on a night: mostly stable, a few games flip now and then.
const statusOf = (g, d, night) => ((g * 7 + d * 3 + (g % 97 === 0 ? night : 0)) % 5 < 2 ? 'diverging' : 'conforming');

console.log(`bench-history: node ${process.version}, load average ${load()} (2-core shared machine), work folder ${work}`);

// ---- A: recording one big run ----
if (!flag('skip-record')) {
  const run = join(work, 'big-run');
  mkdirSync(run, { recursive: true });
  const sample = join(work, 'sample-run');
  const s = spawnSync(process.execPath, [bin, 'replay', join(root, 'corpora/samples/reference/games.ndjson.gz'), '--dialect', 'reference', '--limit', '5', '--jobs', '1', '--quiet', '--out', sample], { encoding: 'utf8' });
  if (s.status !== 0) throw new Error(s.stderr);
  copyFileSync(join(sample, '.dice-dialects-run'), join(run, '.dice-dialects-run'));
  const summary = JSON.parse(readFileSync(join(sample, 'summary.json'), 'utf8'));
  const names = DIALECTS.slice(0, dialects);
  const byDialect = {};
  const byRule = {};
  const out = createWriteStream(join(run, 'results.ndjson'));
  const t0 = performance.now();
  for (let g = 0; g < games; g++) {
    for (let d = 0; d < names.length; d++) {
      const st = statusOf(g, d, 0);
      const c = (byDialect[names[d]] ??= { lines: 0, conforming: 0, diverging: 0, unreadable: 0, findings: 0 });
      c.lines++;
      c[st]++;
      let findings = '[]';
      if (st === 'diverging') {
        c.findings++;
        const rule = RULES[g % RULES.length];
        const e = ((byRule[rule] ??= { games: 0, findings: 0, byDialect: {} }).byDialect[names[d]] ??= { games: 0, findings: 0 });
        e.games++;
        e.findings++;
        byRule[rule].games++;
        byRule[rule].findings++;
        findings = `[{"rule":"${rule}","turn":${1 + (g % 40)},"microMove":0,"dfen":"${DFEN}","dice":"pnb","recorded":["d7d5"],"allowed":[],"message":"the recorded turn breaks ${rule}","location":"games.ndjson:${g + 1}"}]`;
      }
      const line = `{"id":"game-${g}","dialect":"${names[d]}","status":"${st}","findings":${findings},"index":${g},"source":"games.ndjson","turns":${20 + (g % 60)}}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'close');
  const totals = { lines: 0, conforming: 0, diverging: 0, unreadable: 0, findings: 0 };
  for (const c of Object.values(byDialect)) for (const k of Object.keys(totals)) totals[k] += c[k];
  Object.assign(summary, { dialects: names, byDialect, byRule, totals });
  summary.run_info.startedAt = new Date().toISOString();
  writeFileSync(join(run, 'summary.json'), JSON.stringify(summary));
  console.log(`A. wrote a run folder of ${games} games × ${dialects} dialects (${mb(statSync(join(run, 'results.ndjson')).size)} of results.ndjson) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const db = join(work, 'record.db');
  rmSync(db, { force: true });
  const before = load();
  const t1 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, bin, 'history', 'record', run, '--db', db, '--quiet'], { encoding: 'utf8' });
  const secs = (performance.now() - t1) / 1000;
  if (r.status !== 0) throw new Error(r.stderr);
  const [kb, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const rss = kb * 1024;
  console.log(`A. history record: ${(games * dialects).toLocaleString('en')} result lines in ${secs.toFixed(1)} s wall (target < 60 s), ${(user + sys).toFixed(1)} s CPU (user ${user} s, system ${sys} s), peak RSS ${mb(rss)}, database ${mb(dbSize(db))}; load average before ${before}, after ${load()}`);
  if (keepIdx < 0) rmSync(run, { recursive: true, force: true });
  rmSync(sample, { recursive: true, force: true });
}

// ---- B: a simulated year, then the dashboard over it ----
if (!flag('skip-year')) {
  const { openStore } = await import(join(root, 'dist/history/store.js'));
  const { migrate } = await import(join(root, 'dist/history/schema.js'));
  const { storeResults } = await import(join(root, 'dist/history/transitions.js'));
  const db = join(work, 'year.db');
  // --reuse-year: measure the pages over the year a run before stored (with --keep DIR).
  const reuse = flag('reuse-year') && existsSync(db);
  if (!reuse) for (const x of ['', '-wal', '-shm']) rmSync(db + x, { force: true });
  const store = await openStore(db);
  await migrate(store);
  const names = DIALECTS.slice(0, yearDialects);
  const t0 = performance.now();
  const start = Date.parse('2026-01-01T02:17:00Z');
  let transitions = 0;
  for (let night = 1; night <= (reuse ? 0 : nights); night++) {
    await store.write(async () => {
      const counts = names.map(() => ({ conforming: 0, diverging: 0 }));
      const rules = new Map();
      // The night's lines in batches, as storeResults takes them.
      function* lines() {
        let batch = [];
        for (let g = 0; g < yearGames; g++) {
          for (let d = 0; d < names.length; d++) {
            const st = statusOf(g, d, night);
            counts[d][st]++;
            const rule = st === 'diverging' ? RULES[g % RULES.length] : null;
            if (rule) rules.set(`${names[d]}\u0000${rule}`, (rules.get(`${names[d]}\u0000${rule}`) ?? 0) + 1);
            batch.push({
              game: `game-${g}`, dialect: names[d], status: st, rule, turn: rule ? 1 + (g % 40) : null, microMove: rule ? 0 : null, dfen: rule ? DFEN : null, recorded: rule ? 'd7d5' : null,
              message: rule ? `the recorded turn breaks ${rule}` : null, source: 'games.ndjson', index: g, turns: 20 + (g % 60), repeats: null,
            });
            if (batch.length >= 10_000) {
              yield batch;
              batch = [];
            }
          }
        }
        if (batch.length) yield batch;
      }
      const stored = await storeResults(store, night, names, lines());
      transitions += stored.transitions;
      const total = yearGames * names.length;
      const conforming = counts.reduce((s, c) => s + c.conforming, 0);
      const at = new Date(start + (night - 1) * 86_400_000).toISOString();
      await store.insertRows('runs', ['run', 'run_key', 'label', 'folder', 'kind', 'tool_version', 'started_at', 'duration_ms', 'recorded_at', 'results_sha256', 'sharded', 'options', 'sources', 'dice', 'lines', 'conforming', 'diverging', 'unreadable', 'outcome', 'failure', 'promoted'], [
        [night, `bench-${night}`, at.slice(0, 10), null, 'nightly', '0.1.0', at, 600_000, at, null, 0, '{}', '[{"source":"games.ndjson","sha256":null}]', null, total, conforming, total - conforming, 0, 'recorded', null, 1],
      ]);
      await store.insertRows('run_dialects', ['run', 'dialect', 'file', 'sha256', 'overrides', 'lines', 'conforming', 'diverging', 'unreadable', 'results'], names.map((d, i) => [night, d, `dialects/${d}.json`, 'ab'.repeat(32), null, yearGames, counts[i].conforming, counts[i].diverging, 0, yearGames]));
      await store.insertRows('run_rules', ['run', 'dialect', 'rule', 'games', 'findings'], [...rules.entries()].map(([k, n]) => [night, ...k.split('\u0000'), n, n]));
    });
    if (night % 10 === 0 || night === nights) process.stdout.write(`\rB. ${night}/${nights} nights stored (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  await store.close();
  const rows = nights * yearGames * names.length;
  if (reuse) transitions = Number((await (await openStore(db, { readonly: true })).all('SELECT count(*) AS n FROM transitions'))[0].n);
  console.log(`\nB. ${rows.toLocaleString('en')} (run, game, dialect) results recorded as ${transitions.toLocaleString('en')} transition rows in ${((performance.now() - t0) / 1000).toFixed(0)} s; database ${mb(dbSize(db))} on disk; load average ${load()}`);

  const child = spawn(process.execPath, [bin, 'serve', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += String(c);
      const m = /^(http:\/\/127\.0\.0\.1:\d+\/)/m.exec(out);
      if (m) res(m[1]);
    });
  });
  let peak = 0;
  const sampleRss = () => {
    try {
      const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]);
      peak = Math.max(peak, kb * 1024);
    } catch {}
  };
  const pages = {
    runs: '/',
    trend: '/trend',
    game: `/game?id=game-${97 * 3}`,
    diff: `/diff?a=${nights - 1}&b=${nights}`,
    'diff first-last': `/diff?a=1&b=${nights}`,
    search: `/search?q=${encodeURIComponent(`dialect:reference rule:enPassant.window since:${nights - 6}`)}`,
    'search changed': `/search?q=${encodeURIComponent(`dialect:reference changed since:${nights - 6}`)}`,
  };
  for (const [name, path] of Object.entries(pages)) {
    const times = [];
    let status = 0;
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      const r = await fetch(new URL(path, url));
      await r.arrayBuffer();
      times.push(performance.now() - t);
      status = r.status;
      sampleRss();
    }
    times.sort((a, b) => a - b);
    const p = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)].toFixed(0);
    console.log(`B. ${name.padEnd(15)} HTTP ${status}  p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  max ${times.at(-1).toFixed(0)} ms over ${requests} requests (target p95 < 300 ms); load average ${load()}`);
  }
  sampleRss();
  child.kill('SIGTERM');
  await once(child, 'exit');
  console.log(`B. serve's peak RSS ${mb(peak)} (target < 300 MB)`);
}
if (keepIdx < 0) rmSync(work, { recursive: true, force: true });
