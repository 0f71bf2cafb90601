import type { GameRecord } from '../game-record.js';
import { checkNative, knownStart, validate } from '../finalise.js';
import { MAX_LINE_BYTES, eachLine, isBlankBytes, lineBatches, wholeLineChunks } from '../input/lines.js';
import type { TextSource } from '../input/text-source.js';
import { type Draft, problem, tooLarge, unreadable } from '../items.js';
import { fastRecord } from './fast-record.js';
import { type FormatModule, type ReadContext, convertOne, guessId } from './format.js';
import { parseJson } from '../input/json-values.js';
import { noteInvalidUtf8 } from '../input/utf8.js';

/**
 * The project's own format: one canonical GameRecord per line. Records keep the
 * `format` and `notes` of the source they were first read from; `location` is
 * rewritten to this file's line, where an error message should point now.
 * Drafts come a chunk of lines at a time: this is the hot path of big corpora.
 */
async function* readBatches(src: TextSource, ctx: ReadContext): AsyncGenerator<Draft[]> {
  if (ctx.deferNative) {
    yield* rawBatches(src);
    return;
  }
  for await (const lines of lineBatches(src)) {
    const drafts: Draft[] = [];
    for (const { text, line, tooLong, invalidUtf8 } of lines) {
      if (tooLong !== undefined) drafts.push(tooLarge(`${src.name}:${line}`, tooLong, MAX_LINE_BYTES));
      else if (text.trim() !== '') {
        const d = decodeNativeLine(text, `${src.name}:${line}`);
        if (invalidUtf8 && d.kind === 'record') noteInvalidUtf8(d.record);
        drafts.push(d);
      }
    }
    yield drafts;
  }
}

async function* read(src: TextSource, ctx: ReadContext): AsyncGenerator<Draft> {
  for await (const drafts of readBatches(src, ctx)) yield* drafts;
}

/** Whole lines as bytes with their spans, one draft per chunk: no text is decoded here. */
async function* rawBatches(src: TextSource): AsyncGenerator<Draft[]> {
  let line = 0;
  for await (const chunk of wholeLineChunks(src)) {
    if (typeof chunk === 'number') {
      yield [tooLarge(`${src.name}:${++line}`, chunk, MAX_LINE_BYTES)];
      continue;
    }
    const spans: number[] = [];
    eachLine(chunk, (start, end) => {
      line++;
      if (!isBlankBytes(chunk, start, end)) spans.push(start, end, line);
    });
    // A copy with its own memory (the chunk may share its buffer with the next one), so it can be moved to a worker.
    if (spans.length) yield [{ kind: 'raw', bytes: new Uint8Array(chunk), spans: Int32Array.from(spans) }];
  }
}

/** One native NDJSON line → a record or an unreadable entry (also used for deferred lines). */
export function decodeNativeLine(text: string, location: string): Draft {
  const parsed = parseJson(text);
  if (!parsed.ok) return unreadable(problem('record.bad-json', `not valid JSON: ${parsed.message}`), location, guessId(text));
  const doc = parsed.value as Record<string, unknown> | null;
  // The usual case, without the error plumbing: the shape and moves are good and the start is a known one.
  const fast = fastRecord(doc);
  if (fast !== null && knownStart(fast.startFen)) {
    fast.location = location;
    return { kind: 'record', record: fast };
  }
  const id = doc && typeof doc === 'object' && typeof doc.id === 'string' ? doc.id : null;
  return convertOne(
    () => {
      const record = fast ?? validate(doc);
      checkNative(record);
      record.location = location;
      return record;
    },
    location,
    id,
  );
}

/** Compact canonical JSON: fields holding their default (null, [], 'unknown') are left out; the schema restores them. */
export function formatNative(record: GameRecord): string {
  return `${JSON.stringify(record, dropDefaults)}\n`;
}

function dropDefaults(this: unknown, key: string, value: unknown): unknown {
  // `result` and the two clock sides are nullable without a default: they must stay.
  if (value === null && key !== 'result' && key !== 'w' && key !== 'b') return undefined;
  if (key === 'diceOrder' && value === 'unknown') return undefined;
  if ((key === 'events' || key === 'notes') && Array.isArray(value) && value.length === 0) return undefined;
  return value;
}

export const ndjsonFormat: FormatModule = { name: 'ndjson', read, readBatches, format: formatNative };
