import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir.js';
import { countsOf, MANIFEST_FORMAT, MANIFEST_NAME, ManifestStore, readManifest, type GameEntry, type Manifest } from './manifest.js';

const manifest = (games: GameEntry[] = []): Manifest => ({
  format: MANIFEST_FORMAT,
  tool: 'dice-dialects test',
  site: 'dicechess-com',
  baseUrl: 'http://127.0.0.1:1',
  player: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  cursor: null,
  listing: null,
  counts: { listed: 0, fetched: 0, unavailable: 0, failed: 0 },
  historyList: null,
  runs: [],
  games,
});

const entry = (id: string, status: GameEntry['status']): GameEntry => ({
  id,
  status,
  fetchedAt: '2026-01-01T00:00:01.000Z',
  file: status === 'fetched' ? `games/${id}.json` : null,
  bytes: status === 'fetched' ? 10 : null,
  sha256: null,
  httpStatus: status === 'failed' ? null : status === 'fetched' ? 200 : 404,
  reason: status === 'unavailable' ? 'not found' : null,
  error: status === 'failed' ? { code: 'http.network', message: 'reset' } : null,
  refresh: null,
  attempts: 1,
  listing: null,
});

describe('fetch manifest (listed = fetched + unavailable + failed)', () => {
  it('reads an absent manifest as none, and refuses what is not one of ours', async () => {
    const dir = tempDir('manifest-test-');
    expect(await readManifest(dir)).toEqual({ kind: 'none' });
    writeFileSync(path.join(dir, MANIFEST_NAME), '{ not json');
    expect(await readManifest(dir)).toMatchObject({ kind: 'foreign', why: expect.stringMatching(/not JSON/) });
    writeFileSync(path.join(dir, MANIFEST_NAME), JSON.stringify({ format: 'someone-else/1' }));
    expect(await readManifest(dir)).toMatchObject({ kind: 'foreign', why: expect.stringContaining(`not a ${MANIFEST_FORMAT} manifest`) });
    writeFileSync(path.join(dir, MANIFEST_NAME), JSON.stringify({ ...manifest(), site: 'elsewhere' }));
    expect(await readManifest(dir)).toMatchObject({ kind: 'foreign', why: expect.stringMatching(/^it does not follow .*site/) });
    const unreadable = path.join(dir, 'sub');
    mkdirSync(path.join(unreadable, MANIFEST_NAME), { recursive: true }); // a folder where the file should be
    expect(await readManifest(unreadable)).toMatchObject({ kind: 'foreign', why: expect.stringMatching(/cannot read it/) });
  });

  it('counts outcomes', () => {
    expect(countsOf([entry('a', 'fetched'), entry('b', 'failed'), entry('c', 'fetched'), entry('d', 'unavailable')])).toEqual({ listed: 4, fetched: 2, unavailable: 1, failed: 1 });
    expect(countsOf([])).toEqual({ listed: 0, fetched: 0, unavailable: 0, failed: 0 });
  });

  it('replaces a game\'s outcome in place, and a flush writes a manifest that reads back with fresh counts', async () => {
    const dir = tempDir('manifest-test-');
    const order: string[] = [];
    const store = new ManifestStore(dir, manifest([entry('a', 'failed')]), async () => void order.push('history list'));
    store.put(entry('b', 'unavailable'));
    store.put(entry('a', 'fetched'));
    store.setCursor({ page: 3 });
    expect(store.get('a')?.status).toBe('fetched');
    expect(store.get('zzz')).toBeUndefined();
    await store.flush();
    order.push('flushed');
    expect(order[0]).toBe('history list');
    const back = await readManifest(dir);
    expect(back.kind).toBe('ok');
    if (back.kind !== 'ok') return;
    expect(back.manifest.games.map((g) => [g.id, g.status])).toEqual([['a', 'fetched'], ['b', 'unavailable']]);
    expect(back.manifest.counts).toEqual({ listed: 2, fetched: 1, unavailable: 1, failed: 0 });
    expect(back.manifest.cursor).toEqual({ page: 3 });
    expect(back.manifest.updatedAt > '2026-01-01T00:00:00.000Z').toBe(true);
    expect(readFileSync(path.join(dir, MANIFEST_NAME), 'utf8').endsWith('}\n')).toBe(true);
  });

  it('a flush reports a failed save', async () => {
    const dir = tempDir('manifest-test-');
    const store = new ManifestStore(path.join(dir, 'no-such-folder'), manifest());
    store.put(entry('a', 'fetched'));
    await expect(store.flush()).rejects.toThrow();
  });
});
