import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, type FormatName } from './model/game-record.js';
import { GameRecord } from './model/game-record-schema.js';
import { FORMATS } from './formats/index.js';
import { fastRecord } from './formats/fast-record.js';
import { detectFormat } from './detect.js';
import { TextSource } from './input/text-source.js';
import { UNREADABLE_CODES } from './items.js';
import { parseRawRecords } from './raw-records.js';
import { randomGame } from './test-support/random-game.js';
import { makeRecordText } from './write.js';
import { gzipSync } from 'node:zlib';

const valid = (format: FormatName): string => [1, 2, 3].map((s) => makeRecordText(format, randomGame(s, { turns: 3 }))).join('');
const SAMPLES = Object.fromEntries(FORMAT_NAMES.map((f) => [f, valid(f)])) as Record<FormatName, string>;

/**
 * Reads bytes with one format's reader the replayer's way (records cut as bytes by the
 * reading thread, decoded by the worker-side decoder): every item must be a valid record
 * or a coded unreadable entry.
 */
async function readAll(format: FormatName, bytes: Uint8Array): Promise<void> {
  const src = TextSource.fromText('fuzz.data', bytes);
  for await (const batch of FORMATS[format].readBatches(src, { sidecar: null })) {
    for (const d of batch) {
      const items = d.kind === 'raw' ? [...parseRawRecords({ ...d, index: 0, source: 'fuzz.data' })] : [d];
      for (const item of items) {
        if (item.kind === 'record') expect(GameRecord.safeParse(item.record).success).toBe(true);
        else expect(UNREADABLE_CODES).toContain(item.code);
      }
    }
  }
}

/** A valid text with a few random edits: the interesting inputs lie near valid ones. */
const mutated = fc
  .tuple(
    fc.constantFrom(...FORMAT_NAMES),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 20 }), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 }),
  )
  .map(([format, edits]) => {
    let text = SAMPLES[format];
    for (const [at, del, ins] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + ins + text.slice(i + del);
    }
    return text;
  });

describe('no input makes a reader throw', () => {
  for (const format of FORMAT_NAMES) {
    it(`${format}: arbitrary bytes`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
          await readAll(format, bytes);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('every reader: valid documents with random edits, and gzip of them cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, fc.constantFrom(...FORMAT_NAMES), fc.nat(), async (text, format, cut) => {
        await readAll(format, Buffer.from(text));
        const detected = detectFormat(text);
        if (detected) await readAll(detected, Buffer.from(text));
        const gz = gzipSync(text);
        await readAll(format, gz.subarray(0, cut % (gz.length + 1)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the native fast path agrees with the schema', () => {
  it('whatever it accepts, zod accepts with the same result', () => {
    const native = SAMPLES.ndjson.trim().split('\n');
    const arbitraryJson = fc.oneof(
      fc.constantFrom(...native).chain((line) =>
        fc.tuple(fc.constant(line), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.string({ maxLength: 3 })), { maxLength: 3 })),
      ).map(([line, edits]) => {
        let text = line;
        for (const [at, del, ins] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + ins + text.slice(i + del);
        }
        return text;
      }),
      fc.json(),
    );
    fc.assert(
      fc.property(arbitraryJson, (text) => {
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch {
          return;
        }
        const viaZod = GameRecord.safeParse(structuredClone(doc));
        const fast = fastRecord(structuredClone(doc));
        if (fast !== null) {
          expect(viaZod.success).toBe(true);
          expect(fast).toEqual(viaZod.data);
        }
        if (doc === null || typeof doc !== 'object') expect(fast).toBeNull();
      }),
      { numRuns: 2000 },
    );
    // And it takes every canonical record.
    for (const line of native) expect(fastRecord(JSON.parse(line))).not.toBeNull();
  });
});
