import type { GameRecord } from '../game-record.js';
import { checkNative, validate } from '../finalise.js';
import { lines } from '../input/lines.js';
import type { TextSource } from '../input/text-source.js';
import { type Draft, problem, unreadable } from '../items.js';
import { fastRecord } from './fast-record.js';
import { type FormatModule, type ReadContext, convertOne, docPlace, guessId } from './format.js';
import { parseJson } from '../input/json-values.js';

/**
 * The project's own format: one canonical GameRecord per line. Records keep the
 * `format` and `notes` of the source they were first read from; `location` is
 * rewritten to this file's line, where an error message should point now.
 */
async function* read(src: TextSource, ctx: ReadContext): AsyncGenerator<Draft> {
  for await (const { text, line } of lines(src)) {
    if (text.trim() === '') continue;
    const place = docPlace(src, line);
    if (ctx.deferNative) yield { kind: 'raw', location: place.location, text };
    else yield decodeNativeLine(text, place.location);
  }
}

/** One native NDJSON line → a record or an unreadable entry (also used for deferred lines). */
export function decodeNativeLine(text: string, location: string): Draft {
  {
    const place = { location };
    const parsed = parseJson(text);
    if (!parsed.ok) return unreadable(problem('record.bad-json', `not valid JSON: ${parsed.message}`), place.location, guessId(text));
    const doc = parsed.value as Record<string, unknown> | null;
    const id = doc && typeof doc === 'object' && typeof doc.id === 'string' ? doc.id : null;
    return convertOne(
      () => {
        const record = fastRecord(doc) ?? validate(doc);
        checkNative(record);
        record.location = place.location;
        return record;
      },
      place.location,
      id,
    );
  }
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

export const ndjsonFormat: FormatModule = { name: 'ndjson', read, format: formatNative };
