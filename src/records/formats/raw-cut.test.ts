import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonValues } from '../input/json-values.js';
import { TextSource } from '../input/text-source.js';
import { RAW_WHOLE_LINE, SPAN } from '../items.js';
import { randomGame } from '../test-support/random-game.js';
import { makeRecordText } from '../write.js';
import { FORMATS } from './index.js';
import { jsonRawBatches, splitLine } from './json-lines.js';

/** A source handing its bytes over in pieces of the given sizes (cycled). */
const pieces = (bytes: Buffer, sizes: number[]): TextSource =>
  new TextSource('t.ndjson', async function* () {
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const n = sizes[k % sizes.length];
      yield bytes.subarray(at, at + n);
      at += n;
    }
  });

/** The documents the raw cutter hands on: text, line, whether a failed parse rescans it. */
async function rawDocs(src: TextSource): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of jsonRawBatches(src, 'ingest-wire')) {
    for (const d of batch) {
      if (d.kind !== 'raw') {
        out.push(d.kind === 'unreadable' ? `${d.code}@${d.location}` : d.kind);
        continue;
      }
      const b = Buffer.from(d.bytes);
      for (let k = 0; k < d.spans.length; k += SPAN) out.push(`${b.toString('utf8', d.spans[k], d.spans[k + 1])}@${d.spans[k + 2]}${d.spans[k + 3] & RAW_WHOLE_LINE ? '' : '!'}`);
    }
  }
  return out;
}

/** The same as `jsonValues` cuts it, all at once (the careful character scan). */
async function scannedDocs(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const d of jsonValues(TextSource.fromText('t.ndjson', text))) out.push(`${d.text}@${d.line}${d.oneLine ? '' : '!'}`);
  return out;
}

const line = (seed: number): string => makeRecordText('ingest-wire', randomGame(seed, { turns: 2 })).trimEnd();
const PIECES = [
  line(1),
  line(2),
  '',
  '   \t',
  `  ${line(3)}\r`,
  JSON.stringify(JSON.parse(line(4)), null, 2),
  '{"id": "broken", "turns": [',
  '[{"a": 1}, {"b": 2}]',
  'junk here',
  '{"a": 1} {"b": 2}',
  '{"s": "a } { b"}',
];

describe('JSON-family sources cut in bytes', () => {
  it('give the documents and lines the character scan gives, however the bytes come (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 10 }),
        async (lines, sizes) => {
          const text = `${lines.join('\n')}\n`;
          expect(await rawDocs(pieces(Buffer.from(text), sizes))).toEqual(await scannedDocs(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line holding several documents is cut into them where it is decoded', async () => {
    expect(splitLine('{"a": 1} {"b": 2}')).toEqual(['{"a": 1}', '{"b": 2}']);
    expect(splitLine('{"s": "} {"} x')).toEqual(['{"s": "} {"}', 'x']);
    const drafts = [];
    for await (const d of FORMATS['ingest-wire'].read(TextSource.fromText('t.ndjson', `${line(1)} ${line(2)}\n`), { sidecar: null })) drafts.push(d);
    expect(drafts.map((d) => (d.kind === 'record' ? d.record.id : d.kind))).toEqual(['game-1', 'game-2']);
  });
});

describe('per-turn CSV cut into games in bytes', () => {
  const rows = (seed: number): string[] => makeRecordText('csv', randomGame(seed, { turns: 3 })).trimEnd().split('\n').slice(1);
  const header = FORMATS.csv.header!.trimEnd();

  it('a game whose rows cross any number of reads is one record, the header beside it, rows and lines as written (property)', async () => {
    const text = [header, ...rows(1), '', ...rows(2), '"game-3",1,bad', ...rows(4)].join('\n');
    const expected = ['game-1@t.ndjson:2', 'game-2@t.ndjson:6', 'record.bad-csv@t.ndjson:9', 'game-4@t.ndjson:10'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 10 }), async (sizes) => {
        const got: string[] = [];
        for await (const d of FORMATS.csv.read(pieces(Buffer.from(text), sizes), { sidecar: null })) got.push(d.kind === 'record' ? `${d.record.id}@${d.record.location}` : d.kind === 'unreadable' ? `${d.code}@${d.location}` : d.kind);
        expect(got).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('a stray row inside a game (a broken row, or another game\'s) makes that game unreadable where the row is: never two halves judged as games (property)', async () => {
    const [a, b] = [rows(1), rows(2)];
    const cases: Array<[string[], string[]]> = [
      [[header, ...a.slice(0, 2), 'this,is,not,"a valid row', ...a.slice(2), ...b], ['game-1 record.bad-csv@t.ndjson:4 row has 4 fields, the header 14', 'game-2@t.ndjson:6']],
      [[header, a[0], b[0], ...a.slice(1), ...rows(3)], ['game-1 record.bad-csv@t.ndjson:3 a row of game_id "game-2" between rows of game "game-1"', 'game-3@t.ndjson:6']],
      // The last row of the input, and a one-row game between two others, stay what they are.
      [[header, ...a, b[0]], ['game-1@t.ndjson:2', 'game-2@t.ndjson:5']],
      [[header, ...a, b[0], ...rows(3)], ['game-1@t.ndjson:2', 'game-2@t.ndjson:5', 'game-3@t.ndjson:6']],
    ];
    for (const [lines, expected] of cases) {
      const text = lines.join('\n');
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 10 }), async (sizes) => {
          const got: string[] = [];
          for await (const d of FORMATS.csv.read(pieces(Buffer.from(text), sizes), { sidecar: null })) {
            got.push(d.kind === 'record' ? `${d.record.id}@${d.record.location}` : d.kind === 'unreadable' ? `${d.id} ${d.code}@${d.location} ${d.message}` : d.kind);
          }
          expect(got).toEqual(expected);
        }),
        { numRuns: 50 },
      );
    }
  });
});
