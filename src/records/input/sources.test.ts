import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatRecord } from '../write.js';
import { collect, records, unreadables } from '../test-support/collect.js';
import { randomGame } from '../test-support/random-game.js';
import { globToRegExp } from './expand.js';
import { tempDir } from '../../test-support/temp-dir.js';

const dir = tempDir('records-sources-');
const ndjson = (from: number, count: number): string => Array.from({ length: count }, (_, i) => formatRecord('ndjson', randomGame(from + i, { turns: 3 }))).join('');

describe('sources', () => {
  it('reads a directory recursively in path order, filtered by a glob, and a glob source', async () => {
    const root = path.join(dir, 'tree');
    mkdirSync(path.join(root, 'b', 'c'), { recursive: true });
    mkdirSync(path.join(root, '.hidden'), { recursive: true });
    writeFileSync(path.join(root, 'b', 'c', 'z.ndjson'), ndjson(30, 1));
    writeFileSync(path.join(root, 'b', 'a.ndjson'), ndjson(20, 2));
    writeFileSync(path.join(root, 'a.ndjson'), ndjson(10, 1));
    writeFileSync(path.join(root, 'notes.txt'), 'not records\n');
    writeFileSync(path.join(root, '.hidden', 'x.ndjson'), ndjson(99, 1));
    const all = await collect([root], { glob: '**/*.ndjson' });
    expect(records(all).map((r) => r.id)).toEqual(['game-10', 'game-20', 'game-21', 'game-30']);
    const globbed = await collect([path.join(root, '**', 'a.ndjson')]);
    expect(records(globbed).map((r) => r.id)).toEqual(['game-10', 'game-20', 'game-21']);
    // Without a filter the text file is a source of unknown format: one unreadable entry, counted.
    const unfiltered = await collect([root]);
    expect(unreadables(unfiltered).map((u) => u.code)).toEqual(['record.unknown-format']);
    expect(unfiltered).toHaveLength(5);
  });

  it('keeps the given source order with several sources read at once, and stops at the limit', async () => {
    const files = [0, 1, 2, 3, 4, 5].map((k) => {
      const f = path.join(dir, `order-${k}.ndjson`);
      writeFileSync(f, ndjson(k * 100, 40 - k * 5));
      return f;
    });
    const expected = [0, 1, 2, 3, 4, 5].flatMap((k) => Array.from({ length: 40 - k * 5 }, (_, i) => `game-${k * 100 + i}`));
    for (const concurrency of [1, 3, 8]) {
      const items = await collect([...files].reverse().reverse(), { concurrency });
      expect(records(items).map((r) => r.id)).toEqual(expected);
      expect(items.map((i) => i.index)).toEqual(expected.map((_, i) => i));
    }
    const limited = await collect(files, { limit: 50, concurrency: 4 });
    expect(limited.map((i) => i.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('names missing files and empty globs as record.io, and goes on', async () => {
    const ok = path.join(dir, 'ok.ndjson');
    writeFileSync(ok, ndjson(1, 2));
    const items = await collect([path.join(dir, 'missing.ndjson'), ok, path.join(dir, 'nothing', '*.csv')]);
    expect(items.map((i) => (i.kind === 'record' ? i.record.id : i.code))).toEqual(['record.io', 'game-1', 'game-2', 'record.io']);
    expect(unreadables(items)[0].message).toMatch(/does not exist/);
  });

  it('gunzips by magic bytes; a truncated gzip keeps the records before the cut and adds one entry', async () => {
    const text = ndjson(500, 200);
    const gz = gzipSync(Buffer.from(text));
    const whole = path.join(dir, 'whole.ndjson.gz');
    writeFileSync(whole, gz);
    expect(records(await collect([whole]))).toHaveLength(200);
    const cut = path.join(dir, 'cut.ndjson.gz');
    writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const items = await collect([cut]);
    const bad = unreadables(items);
    expect(bad).toHaveLength(1);
    expect(bad[0].code).toBe('record.truncated-gzip');
    const read = records(items);
    expect(read.length).toBeGreaterThan(50);
    expect(read.length).toBeLessThan(200);
    expect(read.map((r) => r.id)).toEqual(Array.from({ length: read.length }, (_, i) => `game-${500 + i}`));
  });

  it('detects each format from content; --format overrides', async () => {
    const game = randomGame(3, { turns: 2 });
    const names = ['ndjson', 'ingest-wire', 'history', 'csv', 'opening-book', 'dicechess-com'] as const;
    for (const format of names) {
      const f = path.join(dir, `detect-${format}.data`);
      writeFileSync(f, formatRecord(format, game));
      const items = await collect([f]);
      expect(items.map((i) => (i.kind === 'record' ? i.record.format : i.code))).toEqual([format]);
    }
    const forced = await collect([path.join(dir, 'detect-csv.data')], { format: 'ndjson' });
    expect(unreadables(forced)[0].code).toBe('record.bad-json');
  });
});

describe('globToRegExp', () => {
  it('matches **, *, ?, classes and alternatives', () => {
    expect(globToRegExp('**/*.ndjson').test('a/b/c.ndjson')).toBe(true);
    expect(globToRegExp('**/*.ndjson').test('c.ndjson')).toBe(true);
    expect(globToRegExp('*.ndjson').test('a/c.ndjson')).toBe(false);
    expect(globToRegExp('game-?.{json,csv}').test('game-1.csv')).toBe(true);
    expect(globToRegExp('[ab]*.json').test('c.json')).toBe(false);
  });
});
