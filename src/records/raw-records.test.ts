import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ndjsonFormat } from './formats/ndjson.js';
import { TextSource } from './input/text-source.js';
import type { Draft, RawRecords, ReadItem } from './items.js';
import { readRecords } from './read.js';
import { parseRawRecords } from './raw-records.js';
import { collect } from './test-support/collect.js';
import { randomGame } from './test-support/random-game.js';
import { makeRecordText } from './write.js';
import { tempDir } from '../test-support/temp-dir.js';

const dir = tempDir('records-raw-');

/** Native lines with every line-level quirk: CRLF, blank and blank-looking lines, non-ASCII text, bad JSON, no final newline. */
function quirkyNdjson(): string {
  const game = (seed: number, name?: string): string => {
    const r = randomGame(seed, { turns: 4 });
    if (name) r.players.white.name = name;
    return makeRecordText('ndjson', r).trimEnd();
  };
  return [game(1), '', game(2, 'Zoë 🎲 Ålesund') + '\r', '   \t', '{"id": "broken", "turns": [', game(3), '\r', game(4)].join('\n');
}

async function deferred(sources: string[], limit?: number): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readRecords(sources, { deferRaw: true, format: 'ndjson', limit })) {
    if (item.kind === 'raw') out.push(...parseRawRecords(item));
    else out.push(item);
  }
  return out;
}

describe('deferred native lines (the replayer hands them to workers as bytes)', () => {
  it('decode to exactly the items a plain read gives: indices, records, unreadable entries and their lines', async () => {
    const file = path.join(dir, 'quirky.ndjson');
    writeFileSync(file, quirkyNdjson());
    const plain = await collect([file], { format: 'ndjson' });
    expect(plain.map((i) => (i.kind === 'record' ? i.record.id : `${i.code}@${i.location}`))).toEqual([
      'game-1',
      'game-2',
      `record.bad-json@${file}:5`,
      'game-3',
      'game-4',
    ]);
    expect(await deferred([file])).toEqual(plain);
    const gz = path.join(dir, 'quirky.ndjson.gz');
    writeFileSync(gz, gzipSync(quirkyNdjson()));
    expect((await deferred([gz])).map((i) => i.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('cut at the limit inside a chunk of lines', async () => {
    const file = path.join(dir, 'many.ndjson');
    writeFileSync(file, Array.from({ length: 30 }, (_, i) => makeRecordText('ndjson', randomGame(i, { turns: 2 }))).join(''));
    const items = await deferred([file], 7);
    expect(items.map((i) => i.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(items.map((i) => (i.kind === 'record' ? i.record.id : i.code))).toEqual(Array.from({ length: 7 }, (_, i) => `game-${i}`));
  });

  it('whatever the chunking of the bytes, lines cut and decode the same (property)', async () => {
    const bytes = Buffer.from(quirkyNdjson());
    const expected = await drafts(TextSource.fromText('q.ndjson', bytes), false);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 40 }), async (sizes) => {
        const chunked = new TextSource('q.ndjson', async function* () {
          for (let at = 0, k = 0; at < bytes.length; k++) {
            const n = sizes[k % sizes.length];
            yield bytes.subarray(at, at + n);
            at += n;
          }
        });
        expect(await drafts(chunked, true)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

/** The reader's drafts; deferred ones decoded as a worker would. */
async function drafts(src: TextSource, _chunked: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of ndjsonFormat.readBatches(src, { sidecar: null })) {
    for (const d of batch as Draft[]) {
      if (d.kind !== 'raw') out.push(d);
      else {
        const raw: RawRecords = { kind: 'raw', index: 0, source: src.name, format: d.format, header: d.header, bytes: d.bytes, spans: d.spans };
        for (const item of parseRawRecords(raw)) out.push(item.kind === 'record' ? { kind: 'record', record: item.record } : { kind: 'unreadable', location: item.location, id: item.id, code: item.code, message: item.message });
      }
    }
  }
  return out;
}
