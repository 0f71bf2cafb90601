import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { packageRoot } from '../dialects/paths.js';
import { startFakeSite, fortemateGames } from './test-support/fake-sites.js';
import { TempDirs, readManifestFile, sha256File } from './test-support/folders.js';

const temps = new TempDirs();
afterAll(() => temps.removeAll());
const bin = path.join(packageRoot(), 'bin', 'dice-dialects.js');
const PLAYER = 'kill-me';

describe('fetch killed with SIGKILL', () => {
  it('loses nothing already fetched, leaves no complete-looking partial file, and the next run finishes the job', async () => {
    const games = fortemateGames(60);
    const f = await startFakeSite('fortemate', { games, player: PLAYER, pageSize: 10, gameDelayMs: 10, missing: [games[9].id] });
    const out = path.join(temps.make(), 'fm');
    const args = [bin, 'fetch', 'fortemate', '--player', PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--concurrency', '4', '--quiet'];
    const bodies = new Map(games.map((g) => [`${g.id}.json`, g.body]));
    try {
      let runs = 0;
      let kills = 0;
      for (const killAt of [2, 13, 27, 41, 52]) {
        if (f.served >= killAt) continue;
        runs++;
        const child = spawn(process.execPath, args, { stdio: 'ignore' });
        const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
        // At the kill the server holds every further answer: the child cannot finish before the signal lands.
        let release = (): void => {};
        f.onServed = () => {
          if (f.served < killAt || f.hold) return;
          f.hold = new Promise((r) => (release = r));
          child.kill('SIGKILL');
        };
        await exited;
        f.onServed = null;
        f.hold = null;
        release();
        if (child.signalCode === 'SIGKILL') kills++;
        // What a kill leaves: a manifest whose counts add up, every entry's file whole, every game file complete.
        const m = readManifestFile(out);
        expect(m.counts.listed).toBe(m.counts.fetched + m.counts.unavailable + m.counts.failed);
        expect(m.counts.listed).toBe(m.games.length);
        for (const g of m.games.filter((x) => x.status === 'fetched')) expect(sha256File(path.join(out, g.file!))).toBe(g.sha256);
        for (const n of readdirSync(path.join(out, 'games')).filter((x) => !x.startsWith('.'))) expect(readFileSync(path.join(out, 'games', n), 'utf8')).toBe(bodies.get(n));
      }
      expect(runs).toBeGreaterThanOrEqual(3);
      expect(kills).toBe(runs);
      const last = spawn(process.execPath, args, { stdio: 'ignore' });
      expect(await new Promise((r) => last.on('exit', r))).toBe(0);
      const m = readManifestFile(out);
      expect(m.counts).toEqual({ listed: 60, fetched: 59, unavailable: 1, failed: 0 });
      expect(m.cursor).toMatchObject({ exhausted: true });
      expect(readdirSync(path.join(out, 'games')).filter((n) => /\.tmp(-|$)/.test(n))).toEqual([]);
      expect(existsSync(path.join(out, '.fetch.lock'))).toBe(false);
      // Each game was fetched whole once at most per kill that interrupted it; the folder replays every game once.
      const run = path.join(temps.make(), 'run');
      expect((await runCli('replay', out, '--dialect', 'reference', '--out', run, '--jobs', '1', '--quiet')).code).toBe(0);
      const ids = readFileSync(path.join(run, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).id);
      expect(ids.sort()).toEqual(games.filter((_, i) => i !== 9).map((g) => g.id).sort());
    } finally {
      await f.close();
    }
  }, 180_000);

  it('Ctrl-C (SIGINT) saves the manifest, removes the lock and exits 130', async () => {
    const games = fortemateGames(30);
    const f = await startFakeSite('fortemate', { games, player: PLAYER, pageSize: 10, gameDelayMs: 20 });
    const out = path.join(temps.make(), 'fm');
    try {
      const child = spawn(process.execPath, [bin, 'fetch', 'fortemate', '--player', PLAYER, '--out', out, '--base-url', f.url, '--rate', '0', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += String(d)));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      f.onServed = () => {
        if (f.served === 5) child.kill('SIGINT');
      };
      expect(await exited).toBe(130);
      expect(err).toMatch(/interrupted by SIGINT/);
      const m = readManifestFile(out);
      expect(m.counts.fetched).toBeGreaterThan(0); // answers still in flight at the signal are dropped, not half-kept
      expect(m.counts.listed).toBe(m.counts.fetched + m.counts.unavailable + m.counts.failed);
      expect(m.runs.at(-1)).toMatchObject({ completed: false });
      expect(existsSync(path.join(out, '.fetch.lock'))).toBe(false);
    } finally {
      await f.close();
    }
  });
});
