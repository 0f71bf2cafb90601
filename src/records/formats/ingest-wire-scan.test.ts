import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAW_WHOLE_LINE } from '../items.js';
import { randomGame } from '../test-support/random-game.js';
import { makeRecordText } from '../write.js';
import { GameRecord } from '../model/game-record-schema.js';
import { withFenAfter } from '../replay-fens.js';
import { type RawPlace, parseSpans } from './format.js';
import { ingestWireFormat } from './ingest-wire.js';
import { scanIngestWire } from './ingest-wire-scan.js';

const root = new URL('../../../', import.meta.url);
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
const sample = (path: string): string[] => lines(gunzipSync(readFileSync(new URL(`corpora/samples/${path}`, root))).toString('utf8'));

/** Documents in the form this tool writes: the samples, and generated games (Chess960 starts, passes, every FEN filled). */
const written = [
  ...sample('reference/games.ingest-wire.ndjson.gz'),
  ...sample('dicechess-com/games.ingest-wire.ndjson.gz'),
  ...Array.from({ length: 40 }, (_, seed) => makeRecordText('ingest-wire', withFenAfter(randomGame(seed + 1, { chess960: seed % 5 === 0 }))).trimEnd()),
];
/** Long documents, which the format reads with the scanner (shorter ones go to JSON.parse): the chess sample's games, every FEN filled. */
const long = sample('chess/games.ndjson.gz')
  .slice(0, 40)
  .map((l) => makeRecordText('ingest-wire', withFenAfter(GameRecord.parse(JSON.parse(l)))).trimEnd());

/** Every ingest-wire document of the fixtures, as written there and compact. */
function fixtureDocuments(): string[] {
  const dir = new URL('src/records/fixtures/ingest-wire/', root);
  const docs: string[] = [];
  for (const name of readdirSync(dir)) {
    const text = readFileSync(new URL(name, dir), 'utf8');
    for (const l of name.endsWith('.json') ? [text] : lines(text)) {
      docs.push(l);
      try {
        const parsed = JSON.parse(l) as unknown;
        for (const doc of Array.isArray(parsed) ? parsed : [parsed]) docs.push(JSON.stringify(doc));
      } catch {
        // broken JSON: as it is only
      }
    }
  }
  return docs;
}

/** The scanner's answer for a document inside a larger buffer (other bytes on both sides, which it must not read). */
function scanned(text: string): unknown {
  const before = Buffer.from('{"id":"x","turns":[{"turn_number":1,\n');
  const after = Buffer.from('\n,"turns":[]}],"events":[]}');
  const doc = Buffer.from(text, 'latin1');
  const bytes = Buffer.concat([before, doc, after]);
  return scanIngestWire(bytes, before.length, before.length + doc.length);
}

/** JSON.parse's object, or undefined where it throws. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The scanner gives JSON.parse's very object, or leaves the document to it; never an object
 * for text JSON.parse refuses. Says which it did, so a test can require real comparisons.
 */
function expectSameOrNone(text: string): 'same' | 'left' {
  const fast = scanned(text);
  const slow = parsed(text);
  if (slow === undefined) expect(fast, text.slice(0, 80)).toBeUndefined();
  if (fast === undefined) return 'left';
  expect(fast).toStrictEqual(slow);
  return 'same';
}

const ctx = { sidecar: null };
const at = (line: number): RawPlace => ({ source: 'games.ingest-wire', line, flags: RAW_WHOLE_LINE, header: null });

describe('the ingest-wire scanner reads as JSON.parse does', () => {
  it('reads every document this tool writes, fast, as JSON.parse does', () => {
    expect(written.length).toBeGreaterThan(60);
    for (const text of [...written, ...long]) {
      const fast = scanned(text);
      expect(fast, text.slice(0, 80)).toBeDefined();
      expect(fast).toStrictEqual(JSON.parse(text));
    }
  });

  it('gives JSON.parse’s object or nothing for every fixture document', () => {
    const docs = fixtureDocuments();
    expect(docs.length).toBeGreaterThan(4);
    const outcomes = docs.map(expectSameOrNone);
    // Some documents are compared, not all left to JSON.parse.
    expect(outcomes.filter((o) => o === 'same').length).toBeGreaterThanOrEqual(2);
  });

  it('gives JSON.parse’s object or nothing for written documents with a few characters changed', () => {
    const alphabet = [...'{}[]",:0123456789.-eE nulltruefalse\\wbabcdefgh/KQkqPNBRQ'];
    let same = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...written, ...long),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(fc.constantFrom(...alphabet), { maxLength: 3 })), { minLength: 1, maxLength: 3 }),
        (doc, edits) => {
          let text = doc;
          for (const [pos, del, ins] of edits) {
            const i = pos % (text.length + 1);
            text = text.slice(0, i) + ins.join('') + text.slice(i + del);
          }
          if (expectSameOrNone(text) === 'same') same++;
        },
      ),
      { numRuns: 3000 },
    );
    // The comparison ran, not only the way out: at the time of writing 822 of the 3,000 edited documents were compared.
    expect(same).toBeGreaterThan(300);
  });

  it('decodes a worker’s batch as the general path does: records, and unreadable entries with their codes and places', () => {
    // ASCII throughout (the fast path reads ASCII batches only): written documents, some made unreadable or odd.
    const odd = (t: string, i: number): string => [t, t.replace('"turns":[', '"turns":[1,'), t.replace(/"fen_after":"[^"]*"/, '"fen_after":"8/8 w"'), t.replace('"dice":[', '"dice":[9,'), ` ${t}`][i % 5];
    const docs = [...long.map(odd), ...written.slice(0, 10), ...fixtureDocuments().filter((t) => /^[\x20-\x7e]*$/.test(t))];
    // Most are long enough for the scanner.
    expect(long.filter((t) => t.length >= 8192).length).toBeGreaterThan(20);
    const bytes = Buffer.from(docs.join('\n'), 'latin1');
    expect(bytes.every((c) => c < 128)).toBe(true);
    const spans: number[] = [];
    let start = 0;
    docs.forEach((t, i) => {
      spans.push(start, start + t.length, i + 1, RAW_WHOLE_LINE);
      start += t.length + 1;
    });
    const fast = [...parseSpans(ingestWireFormat, { bytes, spans: Int32Array.from(spans), header: null }, 'games.ingest-wire', ctx)];
    const general = docs.flatMap((t, i) => ingestWireFormat.parse!(t, at(i + 1), ctx));
    expect(fast).toStrictEqual(general);
    expect(general.filter((d) => d.kind === 'unreadable').length).toBeGreaterThan(10);
  });
});
