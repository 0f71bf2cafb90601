import type { GameRecord } from '../model/game-record.js';
import { checkNative, knownStart, validate } from '../model/finalise.js';
import { type Draft, problem, unreadable } from '../items.js';
import { fastRecord } from './fast-record.js';
import { type FormatModule, convertOne, guessId, readParsed } from './format.js';
import { lineRawBatches } from './line-records.js';
import { parseJson } from '../input/json-values.js';

/** One native NDJSON line → a record or an unreadable entry (also used for deferred lines). */
export function parseNativeLine(text: string, location: string): Draft {
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
export function makeNative(record: GameRecord): string {
  return `${JSON.stringify(record, dropDefaults)}\n`;
}

function dropDefaults(this: unknown, key: string, value: unknown): unknown {
  // `result` and the two clock sides are nullable without a default: they must stay.
  if (value === null && key !== 'result' && key !== 'w' && key !== 'b') return undefined;
  if (key === 'diceOrder' && value === 'unknown') return undefined;
  if ((key === 'events' || key === 'notes') && Array.isArray(value) && value.length === 0) return undefined;
  return value;
}

/**
 * The project's own format: one canonical GameRecord per line. Records keep the
 * `format` and `notes` of the source they were first read from; `location` is
 * rewritten to this file's line, where an error message should point now.
 */
export const ndjsonFormat: FormatModule = {
  name: 'ndjson',
  readBatches: (src) => lineRawBatches(src, 'ndjson'),
  parse: (text, at) => [parseNativeLine(text, `${at.source}:${at.line}`)],
  read: (src, ctx) => readParsed(ndjsonFormat, src, ctx),
  make: makeNative,
};
