import type { HistoryIndex } from './history-list.js';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FormatModule, type RawPlace, parseSpans, jsonFormat } from '../format.js';
import { type Draft, RAW_WHOLE_LINE } from '../../items.js';
import { checkedTurns } from '../../model/checked-record.js';
import { fenBoardsOf } from '../../model/fen-boards.js';
import type { GameRecord } from '../../model/game-record.js';
import { randomGame } from '../../test-support/random-game.js';
import { makeRecordText } from '../../write.js';
import { dicechessComFormat } from './index.js';
import { parseStateMap } from './read.js';
import { scanStateMap } from './scan.js';

/** The general path alone: JSON.parse and the converter, as every state map was read before the scanner. */
const general: FormatModule<HistoryIndex> = jsonFormat<HistoryIndex>('dicechess-com', (doc, place, notes, attempt, ctx) => parseStateMap(doc, place, notes, attempt, ctx.sidecar), () => '');
const ctx = { sidecar: null };
const at = (line: number, source = 'games.dicechess-com'): RawPlace => ({ source, line, flags: 1, header: null });

/**
 * The drafts of one document as a worker decodes them: a raw span of a larger buffer (other
 * documents' bytes on both sides, which the scanner must not read), fast path first.
 */
function decodeAsWorker(text: string, line: number, source: string): unknown[] {
  const doc = Buffer.from(text, 'utf8');
  const before = Buffer.from('{"gameMoveHistoryStateMap":{"0":{"fen":"x"}}}\n');
  const after = Buffer.from('\n"0":{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}}}');
  const bytes = Buffer.concat([before, doc, after]);
  const spans = Int32Array.of(before.length, before.length + doc.length, line, RAW_WHOLE_LINE);
  return [...parseSpans(dicechessComFormat, { bytes, spans, header: null }, source, ctx)];
}

/** The same drafts (records, or unreadable entries with their codes, messages and locations) from the fast and the general path. */
function expectSameDecoding(text: string, line = 1, source = 'games.dicechess-com'): void {
  const fast = decodeAsWorker(text, line, source);
  expect(fast).toStrictEqual(general.parse!(text, at(line, source), ctx));
  // A record's turns are taken without the schema's check (formedTurns): they are what it gives back.
  for (const d of fast as Draft[]) if (d.kind === 'record') expect(JSON.stringify(checkedTurns(d.record.turns))).toBe(JSON.stringify(d.record.turns));
}

const scans = (text: string): boolean => {
  const bytes = Buffer.from(text, 'utf8');
  return scanStateMap(bytes, 0, bytes.length, new Set()) !== undefined;
};

const root = new URL('../../../../', import.meta.url);
const fixtureDir = new URL('src/records/fixtures/dicechess-com/', root);
/** Every state-map document the repository holds: fixtures (as they are, and compact) and the bundled sample. */
function repositoryDocuments(): Array<{ source: string; text: string }> {
  const docs: Array<{ source: string; text: string }> = [];
  for (const name of readdirSync(fixtureDir)) {
    const text = readFileSync(new URL(name, fixtureDir), 'utf8');
    const lines = name.endsWith('.json') ? [text] : text.split('\n').filter((l) => l.trim() !== '');
    for (const l of lines) {
      docs.push({ source: name, text: l });
      const parsed = (() => {
        try {
          return JSON.parse(l) as unknown;
        } catch {
          return undefined; // a fixture of broken JSON: as it is only
        }
      })();
      if (parsed !== undefined) docs.push({ source: name, text: JSON.stringify(parsed) });
    }
  }
  const sample = gunzipSync(readFileSync(new URL('corpora/samples/dicechess-com/games.state-maps.ndjson.gz', root))).toString('utf8');
  for (const l of sample.split('\n')) if (l !== '') docs.push({ source: 'games.state-maps.ndjson', text: l });
  return docs;
}

const generated = Array.from({ length: 40 }, (_, seed) => makeRecordText('dicechess-com', randomGame(seed + 1, { chess960: seed % 5 === 0 })).trimEnd());

describe('the state-map scanner reads as JSON.parse and the converter do', () => {
  it('every fixture and sample document, and its compact form', () => {
    const docs = repositoryDocuments();
    expect(docs.length).toBeGreaterThan(50);
    for (const { source, text } of docs) expectSameDecoding(text, 1, source);
  });

  it('takes the fast path for the compact documents this tool and the site write', () => {
    // The sample and the generated documents: every one read fast (the fixtures hold deliberately broken ones).
    // The site's own answer has no gameId (fetch stores it as it comes): read fast too.
    const siteAnswers = generated.map((t) => t.replace(/^\{"gameId":"[^"]*",/, '{'));
    const compact = [...repositoryDocuments().filter((d) => d.source === 'games.state-maps.ndjson').map((d) => d.text), ...generated, ...siteAnswers];
    const slow = compact.filter((t) => !scans(t));
    expect(slow).toEqual([]);
    expect(compact.length).toBeGreaterThan(60);
  });

  it('documents with random edits (fast-check): records or the same unreadable entries', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...generated),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 4 }),
        (doc, edits) => {
          let text = doc;
          for (const [i, del, ins] of edits) {
            const k = i % (text.length + 1);
            text = text.slice(0, k) + ins + text.slice(k + del);
          }
          expectSameDecoding(text);
        },
      ),
      { numRuns: 400 },
    );
  });

  // Edits aimed at each field the scanner reads: other types, other spellings, other orders.
  const swaps: Array<[RegExp, string]> = [
    [/"allowed":true/, '"allowed":1'],
    [/"used":false/, '"used":null'],
    [/"bank":(\d+)/, '"bank":"$1"'],
    [/"bank":(\d+)/, '"bank":$1.5e1'],
    [/"bank":(\d+)/, '"bank":0$1'],
    [/"bank":(\d+)/, '"bank":1e999'],
    [/"bank":\d+/, '"bank":null'],
    [/,"bank":\d+/, ''],
    [/"leftTime":\{"([^"]+)":(\d+)/, '"leftTime":{"$1":"$2"'],
    [/"leftTime":\{"([^"]+)":(\d+)/, '"leftTime":{"$1":-$2'],
    [/"leftTime":\{[^}]*\}/, '"leftTime":null'],
    [/"leftTime":\{[^}]*\}/, '"leftTime":{"__proto__":5}'],
    [/"leftTime":\{"([^"]+)":(\d+)/, '"leftTime":{"$1":$2,"$1":7'],
    [/"value":"([A-Za-z])"/, '"value":"x"'],
    [/"value":"([A-Za-z])"/, '"value":"4"'],
    [/"value":"([A-Za-z])"/, '"value":"\u212a"'],
    [/"value":"([A-Za-z])"/, '"value":"$1$1"'],
    // The usual die and move are read as literals around their values: every other byte there goes part by part, or to the general path.
    [/"value":"([A-Za-z])"/, '"value":"\\""'],
    [/"value":"([A-Za-z])"/, '"value":"\\\\"'],
    [/"value":"([A-Za-z])"/, '"value":"\\u0070"'],
    [/"value":"([A-Za-z])"/, '"value":""'],
    [/"allowed":true,"used":false/, '"allowed":true,"used":fals'],
    [/"allowed":false,"used":false/, '"allowed":fals,"used":false'],
    [/"used":true\}/, '"used":truee}'],
    [/"used":false\}/, '"used":false,"x":1}'],
    [/"from":"[A-H][1-8]","to":"[A-H][1-8]"/, '"from":"e2","to":"e4"'],
    [/"from":"[A-H]([1-8])"/, '"from":"\\u0045$1"'],
    [/"to":"[A-H]([1-8])"/, '"to":"\\"$1"'],
    [/"promotion":"NONE"\}/, '"promotion":"NONE" }'],
    [/"promotion":"NONE"\}/, '"promotion":"NONE","x":1}'],
    [/"promotion":"NONE"/, '"promotion":null'],
    [/"promotion":"NONE"/, '"promotion":"WHITE_QUEEN"'],
    [/"promotion":"NONE"/, '"promotion":"KING"'],
    [/"from":"([A-H][1-8])"/, '"from":"$1x"'],
    [/"to":"([A-H][1-8])"/, '"to":"a9"'],
    [/"fen":"([^"]+)"/, '"fen":"$1 x"'],
    [/"fen":"([^"]+)"/, '"fen":"8/8/8/8/8/8/8/8 w - - 0 1"'],
    [/"fen":"[^"]+","dices":\[\]/, '"fen":"\\u0072nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","dices":[]'],
    [/"dices":\[\]/, '"dices":null'],
    [/"gameMoveHistoryMove":null/, '"gameMoveHistoryMove":{}'],
    [/"gameId":"[^"]+",/, ''],
    [/"gameId":"[^"]+"/, '"gameId":""'],
    [/"gameId":"[^"]+"/, '"gameId":7'],
    [/"gameId":("[^"]+"),("gameMoveHistoryStateMap":\{.*\})\}$/, '$2,"gameId":$1}'],
    [/"1":\{/, '"01":{'],
    [/"2":\{/, '"0":{'],
    [/"3":\{/, '"9":{'],
    [/\{"fen"/, '{ "fen"'],
    [/"dices":/, '"dices" :'],
    // A later step's bank and clock keys against the step before them (the scanner shares what repeats).
    [/("2":\{"fen".*?"bank":)(\d+)/, '$1$20'],
    [/("2":\{"fen".*?"bank":)(\d+)/, '$1$2.0'],
    [/("2":\{"fen".*?"bank":)(\d+)/, '$1null'],
    [/("2":\{"fen".*?),"bank":\d+/, '$1'],
    [/("3":\{"fen".*?),"bank":\d+/, '$1'],
    [/("2":\{"fen".*?"leftTime":\{")/, '$1x'],
    [/("3":\{"fen".*?"leftTime":\{"[^"]*":\d+,")/, '$1y'],
    [/\}\}$/, '},"extra":1}'],
    [/\}$/, '}\n'],
    [/\}$/, '}{}'],
  ];
  it('documents with each field changed in turn', () => {
    let changed = 0;
    for (const doc of generated.slice(0, 10)) {
      for (const [pattern, replacement] of swaps) {
        const text = doc.replace(pattern, replacement);
        if (text === doc) continue;
        changed++;
        expectSameDecoding(text);
      }
    }
    expect(changed).toBeGreaterThan(300);
  });
});

/** A FEN's board as the core's squares (a1 first; white positive, pawn 1 … king 6), read letter by letter. */
function squaresOf(fen: string): number[] {
  const squares = new Array<number>(64).fill(0);
  const ranks = fen.split(' ')[0].split('/');
  ranks.forEach((rank, r) => {
    let file = 0;
    for (const ch of rank) {
      if (ch >= '1' && ch <= '8') file += Number(ch);
      else {
        const role = 'pnbrqk'.indexOf(ch.toLowerCase()) + 1;
        squares[(7 - r) * 8 + file++] = ch === ch.toUpperCase() ? role : -role;
      }
    }
  });
  return squares;
}

/** A game of 1,200 micro-moves (knights out and back): more boards than the scanner's first scratch holds. */
function longGame(): string {
  const base = randomGame(1);
  const cycle = { w: [['g1f3', 'f3g1', 'b1c3'], ['c3b1', 'g1f3', 'f3g1']], b: [['g8f6', 'f6g8', 'b8c6'], ['c6b8', 'g8f6', 'f6g8']] };
  const turns = Array.from({ length: 400 }, (_, i) => {
    const side = i % 2 === 0 ? 'w' : 'b';
    return { ...base.turns[0], side, dice: [2, 2, 2], moves: cycle[side][(i >> 1) % 2], fenAfter: null, clockMs: null, diceFlags: null } as GameRecord['turns'][number];
  });
  return makeRecordText('dicechess-com', { ...base, startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', chess960: null, turns, events: [], result: null, termination: 'unknown' }).trimEnd();
}

describe('the boards the scanner writes down for the judge (FenBoards)', () => {
  it("are each turn's fenAfter board, for nearly every turn of the samples and generated documents", () => {
    const docs = [...repositoryDocuments().filter((d) => d.source === 'games.state-maps.ndjson').map((d) => d.text), ...generated];
    docs.push(longGame());
    let turns = 0;
    let read = 0;
    for (const text of docs) {
      for (const d of decodeAsWorker(text, 1, 'games.dicechess-com') as Array<{ kind: string; record: GameRecord }>) {
        expect(d.kind).toBe('record');
        const boards = fenBoardsOf(d.record);
        expect(boards).toBeDefined();
        d.record.turns.forEach((t, i) => {
          turns++;
          if (t.fenAfter === null || boards!.fens[i] !== t.fenAfter) return;
          read++;
          expect(Array.from(boards!.squares.subarray(boards!.board(i), boards!.board(i) + 64))).toEqual(squaresOf(t.fenAfter));
        });
      }
    }
    expect(turns).toBeGreaterThan(1000);
    expect(read).toBeGreaterThan(0.95 * turns);
  });

  it('are none on the general path', () => {
    for (const text of generated.slice(0, 5)) for (const d of general.parse!(text, at(1), ctx)) expect(d.kind === 'record' && fenBoardsOf(d.record)).toBe(undefined);
  });
});
