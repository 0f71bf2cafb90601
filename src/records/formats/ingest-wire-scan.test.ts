import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RAW_WHOLE_LINE } from '../items.js';
import { randomGame } from '../test-support/random-game.js';
import { makeRecordText } from '../write.js';
import { GameRecord } from '../model/game-record-schema.js';
import { withFenAfter } from '../replay-fens.js';
import type { Draft } from '../items.js';
import { checkedTurns } from '../model/checked-record.js';
import { fenBoardsOf } from '../model/fen-boards.js';
import { finaliseRecord } from '../model/finalise.js';
import type { GameRecord as Game } from '../model/game-record.js';
import { type RawPlace, docPlace, parseSpans } from './format.js';
import { ingestWireFormat, readIngestWireBytes } from './ingest-wire.js';

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

const ctx = { sidecar: null };
const at = (line: number): RawPlace => ({ source: 'games.ingest-wire', line, flags: RAW_WHOLE_LINE, header: null });

/**
 * The scanner's record for a document inside a larger buffer (other bytes on both sides, which
 * it must not read), or undefined where it leaves the document to the general path (which a
 * record problem met on the way does too: the general path words it).
 */
function scanned(text: string): Game | undefined {
  const before = Buffer.from('{"id":"x","turns":[{"turn_number":1,\n');
  const after = Buffer.from('\n,"turns":[]}],"events":[]}');
  const doc = Buffer.from(text, 'latin1');
  const bytes = Buffer.concat([before, doc, after]);
  const notes = new Set<string>();
  try {
    const input = readIngestWireBytes(bytes, before.length, before.length + doc.length, docPlace('games.ingest-wire', 1), notes, { id: null });
    return input === undefined ? undefined : finaliseRecord(input, notes);
  } catch {
    return undefined;
  }
}

/** The general path's drafts (JSON.parse, then the format's conversion). */
const general = (text: string): Draft[] => ingestWireFormat.parse!(text, at(1), ctx);

/** Each turn's board as the reader wrote it down for the judge (64 squares), or null where none was. */
function boards(record: Game): (number[] | null)[] {
  const kept = fenBoardsOf(record);
  return record.turns.map((t, i) => (t.fenAfter === null || kept?.pieceAt(i, t.fenAfter, 0) === undefined ? null : Array.from({ length: 64 }, (_, sq) => kept.pieceAt(i, t.fenAfter!, sq)!)));
}

/**
 * The scanner gives the general path's very record (with the same boards written down for the
 * judge), or leaves the document to it; never a record where the general path has none. Says
 * which it did, so a test can require real comparisons.
 */
function expectSameOrNone(text: string): 'same' | 'left' {
  const fast = scanned(text);
  if (fast === undefined) return 'left';
  // The scanner's turns are taken without the schema's check (formedTurns): they are what it gives back.
  expect(JSON.stringify(checkedTurns(fast.turns))).toBe(JSON.stringify(fast.turns));
  // Read before the general path takes the arena's room (a record's boards last until later records come round to it).
  const fastBoards = boards(fast);
  const slow = general(text);
  expect(slow.length, text.slice(0, 80)).toBe(1);
  expect(slow[0].kind, text.slice(0, 80)).toBe('record');
  const record = (slow[0] as Extract<Draft, { kind: 'record' }>).record;
  expect(fast).toStrictEqual(record);
  expect(fastBoards).toStrictEqual(boards(record));
  return 'same';
}

describe('the ingest-wire scanner reads as the general path does', () => {
  it('reads every document this tool writes, fast, as the general path does', () => {
    expect(written.length).toBeGreaterThan(60);
    for (const text of [...written, ...long]) {
      expect(scanned(text), text.slice(0, 80)).toBeDefined();
      expect(expectSameOrNone(text)).toBe('same');
    }
    // The boards are written down: the judge compares them, not the text.
    expect(boards(scanned(long[0])!).filter((b) => b !== null).length).toBeGreaterThan(100);
  });

  it('gives the general path’s record or nothing for every fixture document', () => {
    const docs = fixtureDocuments();
    expect(docs.length).toBeGreaterThan(4);
    for (const doc of docs) expectSameOrNone(doc);
    // The fixtures hold documents the general path refuses: the scanner gave none of them a record.
    expect(docs.filter((d) => general(d).some((x) => x.kind === 'unreadable')).length).toBeGreaterThan(2);
  });

  it('gives the general path’s record or nothing for written documents with a few characters changed', () => {
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
    // The comparison ran, not only the way out: at the time of writing 256 of the 3,000 edited documents were compared.
    expect(same).toBeGreaterThan(150);
  });

  it('decodes a worker’s batch as the general path does: records, and unreadable entries with their codes and places', () => {
    // ASCII throughout (the fast path reads ASCII batches only): written documents, some made unreadable or odd.
    const odd = (t: string, i: number): string => [t, t.replace('"turns":[', '"turns":[1,'), t.replace(/"fen_after":"[^"]*"/, '"fen_after":"8/8 w"'), t.replace('"dice":[', '"dice":[9,'), ` ${t}`][i % 5];
    const docs = [...long.map(odd), ...written.slice(0, 10), ...fixtureDocuments().filter((t) => /^[\x20-\x7e]*$/.test(t))];
    // Those the odd edits left alone are read fast.
    const plain = [...long.filter((_, i) => i % 5 === 0), ...written.slice(0, 10)];
    expect(plain.every((t) => scanned(t) !== undefined)).toBe(true);
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
