import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from './formats/index.js';
import { jsonValues } from './input/json-values.js';
import { MAX_LINE_BYTES, wholeLineChunks } from './input/lines.js';
import { TextSource } from './input/text-source.js';
import type { ReadItem } from './items.js';
import { parseRawRecords } from './raw-records.js';
import { readRecords } from './read.js';
import { randomGame } from './test-support/random-game.js';
import { makeRecordText } from './write.js';
import { tempDir } from '../test-support/temp-dir.js';

const dir = tempDir('records-too-large-');

/** A source that hands its text over in small chunks, so limits are crossed mid-stream. */
const chunked = (text: string, size = 7): TextSource =>
  new TextSource('t.txt', async function* () {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  });

describe('records longer than a reader takes are passed over and accounted for', () => {
  it('line cutting: an over-long line becomes its length, the lines around it stay whole, however the bytes come (reads no bigger than the limit)', async () => {
    const text = 'ab\n' + 'x'.repeat(40) + '\ncd\n' + 'w'.repeat(21) + '\nef\n' + 'y'.repeat(30);
    for (let size = 1; size <= 20; size++) {
      const out: string[] = [];
      for await (const c of wholeLineChunks(chunked(text, size), 20)) out.push(typeof c === 'number' ? `<${c}>` : c.toString());
      expect(out.join(''), `chunks of ${size} bytes`).toBe('ab\n<40>cd\n<21>ef\n<30>');
    }
  });

  it('JSON documents: an over-long one is scanned to its end, the next one is read', async () => {
    const docs = [];
    for await (const d of jsonValues(chunked(`{"a":1}\n{"big":"${'z'.repeat(50)}",\n "n": [1, 2]}\n{"b":2}`), true, 30)) docs.push(d);
    expect(docs.map((d) => (d.tooLong !== undefined ? `too long@${d.line}` : `${d.text}@${d.line}`))).toEqual(['{"a":1}@1', 'too long@2', '{"b":2}@4']);
  });

  it(`native NDJSON: a line over ${MAX_LINE_BYTES / 2 ** 20} MiB is one record.too-large entry, with or without workers`, async () => {
    const game = (seed: number): string => makeRecordText('ndjson', randomGame(seed, { turns: 2 }));
    const file = path.join(dir, 'huge.ndjson');
    writeFileSync(file, `${game(1)}{"id":"huge","pad":"${'a'.repeat(MAX_LINE_BYTES + 10)}"}\n${game(2)}`);
    const plain: ReadItem[] = [];
    for await (const item of readRecords([file])) plain.push(item);
    const deferred: ReadItem[] = [];
    for await (const item of readRecords([file], { deferRaw: true })) deferred.push(...(item.kind === 'raw' ? parseRawRecords(item) : [item]));
    for (const items of [plain, deferred]) {
      expect(items.map((i) => (i.kind === 'record' ? i.record.id : `${i.code}@${i.location}`))).toEqual(['game-1', `record.too-large@${file}:2`, 'game-2']);
    }
  });

  it('per-turn CSV: an over-long row is one record.too-large entry, the rows after it keep their line numbers', async () => {
    // makeRecordText gives a standalone file: the header, then a row per turn.
    const rows = (seed: number): string => makeRecordText('csv', randomGame(seed, { turns: 2 })).split('\n').slice(1).join('\n');
    const file = path.join(dir, 'huge.csv');
    writeFileSync(file, `${FORMATS.csv.header}${rows(1)}x,${'a'.repeat(MAX_LINE_BYTES + 10)}\n${rows(2)}`);
    const items: ReadItem[] = [];
    for await (const item of readRecords([file], { format: 'csv' })) items.push(item);
    expect(items.map((i) => (i.kind === 'record' ? `${i.record.id}@${i.record.turns[0].location}` : `${i.code}@${i.location}`))).toEqual([
      `game-1@${file}:2`,
      `record.too-large@${file}:4`,
      `game-2@${file}:5`,
    ]);
  });
});
