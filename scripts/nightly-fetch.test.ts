import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fortemateGames, startFakeSite } from '../src/fetch/test-support/fake-sites.js';
import { TempDirs, readManifestFile } from '../src/fetch/test-support/folders.js';

const temps = new TempDirs();
afterAll(() => temps.removeAll());
const script = path.join(path.dirname(new URL(import.meta.url).pathname), 'nightly-fetch.mjs');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

describe('nightly fetch entries', () => {
  it('fetches each entry into CORPORA/NAME, prints the folders to replay, skips an entry whose player variable is unset, refuses a bad entry', async () => {
    const games = fortemateGames(6);
    const f = await startFakeSite('fortemate', { games, player: 'nightly-p' });
    try {
      const dir = temps.make('nightly-fetch-');
      const config = path.join(dir, 'config.json');
      writeFileSync(
        config,
        JSON.stringify({
          corpora: [
            { name: 'gen', generate: { dialect: 'reference', games: 1, seed: 's', format: 'ndjson' } },
            { name: 'fm', fetch: { site: 'fortemate', playerEnv: 'NIGHTLY_TEST_PLAYER', baseUrl: f.url, rate: 0 } },
            { name: 'off', fetch: { site: 'fortemate', playerEnv: 'NIGHTLY_TEST_UNSET' } },
          ],
        }),
      );
      const corpora = path.join(dir, 'corpora');
      const r = await run([config, corpora], { NIGHTLY_TEST_PLAYER: 'nightly-p' });
      expect(r.code).toBe(0);
      expect(r.out).toBe(`${path.join(corpora, 'fm')}\n`);
      expect(r.err).toMatch(/off: NIGHTLY_TEST_UNSET is not set; fetch skipped/);
      expect(readManifestFile(path.join(corpora, 'fm')).counts.fetched).toBe(6);
      expect(existsSync(path.join(corpora, 'off'))).toBe(false);
      writeFileSync(config, JSON.stringify({ corpora: [{ name: 'x', fetch: { site: 'chess.com', player: '1' } }] }));
      const bad = await run([config, corpora]);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/fetch.site must be/);
    } finally {
      await f.close();
    }
  });
});
