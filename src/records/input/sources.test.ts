import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { SourceNote } from '../items.js';
import { makeRecordText } from '../write.js';
import { collect, records, unreadables } from '../test-support/collect.js';
import { randomGame } from '../test-support/random-game.js';
import { globToRegExp } from './expand.js';
import { classify } from './source-error.js';
import { tempDir } from '../../test-support/temp-dir.js';

const dir = tempDir('records-sources-');
const ndjson = (from: number, count: number): string => Array.from({ length: count }, (_, i) => makeRecordText('ndjson', randomGame(from + i, { turns: 3 }))).join('');

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
    // Without a filter the text file is plainly not records: skipped with a note, not an unreadable entry.
    const notes: SourceNote[] = [];
    const unfiltered = await collect([root], { onNote: (n) => notes.push(n) });
    expect(unreadables(unfiltered)).toEqual([]);
    expect(unfiltered).toHaveLength(4);
    expect(notes.map((n) => [path.basename(n.source), n.code])).toEqual([['notes.txt', 'source.skipped']]);
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
      writeFileSync(f, makeRecordText(format, game));
      const items = await collect([f]);
      expect(items.map((i) => (i.kind === 'record' ? i.record.format : i.code))).toEqual([format]);
    }
    const forced = await collect([path.join(dir, 'detect-csv.data')], { format: 'ndjson' });
    expect(unreadables(forced)[0].code).toBe('record.bad-json');
  });
});

describe('files that are not records, empty inputs, symbolic links', () => {
  it('skips documentation, answer keys and binary files found in a folder, by their content, one note each', async () => {
    const root = path.join(dir, 'mixed');
    mkdirSync(path.join(root, 'keys'), { recursive: true });
    writeFileSync(path.join(root, 'README.md'), '# Corpora\n\nGames made by `generate`.\n');
    writeFileSync(path.join(root, 'NOTES'), 'These games were recorded on the club server in May.\nAsk before sharing.\n');
    writeFileSync(path.join(root, 'index.html'), '<!DOCTYPE html><html><body>games</body></html>');
    writeFileSync(path.join(root, 'keys', 'planted.key.json'), JSON.stringify({ kind: 'dice-dialects/answer-key', version: 1, planted: {} }, null, 2));
    writeFileSync(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    writeFileSync(path.join(root, 'games.ndjson'), ndjson(40, 2));
    const notes: SourceNote[] = [];
    const items = await collect([root], { onNote: (n) => notes.push(n) });
    expect(records(items).map((r) => r.id)).toEqual(['game-40', 'game-41']);
    expect(unreadables(items)).toEqual([]);
    expect(notes.map((n) => [path.relative(root, n.source), n.code])).toEqual([
      ['NOTES', 'source.skipped'],
      ['README.md', 'source.skipped'],
      ['index.html', 'source.skipped'],
      ['keys/planted.key.json', 'source.skipped'],
      ['logo.png', 'source.skipped'],
    ]);
    expect(notes[3].message).toMatch(/answer key/);
    // Named on its own, the same file is not passed over: the user asked for it.
    const named = await collect([path.join(root, 'README.md')]);
    expect(unreadables(named).map((u) => u.code)).toEqual(['record.unknown-format']);
    expect(unreadables(named)[0].message).toMatch(/documentation/);
  });

  it('an empty file, an empty folder and an empty stdin-like source are noted, not silent', async () => {
    const empty = path.join(dir, 'empty.ndjson');
    writeFileSync(empty, '');
    const blank = path.join(dir, 'blank.ndjson.gz');
    writeFileSync(blank, gzipSync('\n\n'));
    const folder = path.join(dir, 'empty-folder');
    mkdirSync(folder);
    const notes: SourceNote[] = [];
    const items = await collect([empty, blank, folder], { onNote: (n) => notes.push(n) });
    expect(items).toEqual([]);
    expect(notes.map((n) => [n.source, n.code])).toEqual([
      [empty, 'source.empty'],
      [blank, 'source.empty'],
      [folder, 'source.empty'],
    ]);
  });

  it('follows links to folders, reports a link to an ancestor once, and a dangling link as one unreadable entry (not a source failure)', async () => {
    const root = path.join(dir, 'links');
    const outside = path.join(dir, 'outside');
    mkdirSync(path.join(root, 'real'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(root, 'real', 'a.ndjson'), ndjson(60, 1));
    writeFileSync(path.join(outside, 'b.ndjson'), ndjson(70, 2));
    symlinkSync(outside, path.join(root, 'elsewhere'));
    symlinkSync(root, path.join(root, 'real', 'up'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'same'));
    symlinkSync(path.join(dir, 'gone'), path.join(root, 'dangling.ndjson'));
    // A FIFO would block a reader for ever: it is noted, not opened.
    execFileSync('mkfifo', [path.join(root, 'real', 'pipe.ndjson')]);
    const notes: SourceNote[] = [];
    const items = await collect([root], { onNote: (n) => notes.push(n) });
    expect(records(items).map((r) => r.id)).toEqual(['game-70', 'game-71', 'game-60']);
    expect(unreadables(items).map((u) => [path.basename(u.source), u.code])).toEqual([['dangling.ndjson', 'record.broken-link']]);
    expect(unreadables(items)[0].message).toMatch(/dangling|does not exist/);
    expect(notes.map((n) => [path.relative(root, n.source), n.code])).toEqual([
      ['real/pipe.ndjson', 'source.skipped'],
      ['real/up', 'source.link-loop'],
      ['same', 'source.link-repeat'],
    ]);
  });
});

describe('a stream that fails', () => {
  it('is named whatever its error carries: a string code, a DOMException\'s number (an aborted fetch), or nothing', () => {
    const aborted = new DOMException('This operation was aborted', 'AbortError');
    expect(typeof aborted.code).toBe('number');
    expect(classify(aborted, 'http://127.0.0.1/x')).toMatchObject({ code: 'record.io', message: 'reading http://127.0.0.1/x failed: This operation was aborted' });
    expect(classify(Object.assign(new Error('unexpected end of file'), { code: 'Z_BUF_ERROR' }), 'a.gz').code).toBe('record.truncated-gzip');
    expect(classify('gone', 'b').message).toBe('reading b failed: gone');
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
