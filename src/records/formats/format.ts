import path from 'node:path';
import type { FormatName, GameRecord, GameRecordInput } from '../game-record.js';
import { finaliseRecord } from '../finalise.js';
import { TextSource } from '../input/text-source.js';
import { type Draft, RecordProblem, problem, tooLarge, unreadable } from '../items.js';
import { MAX_LINE_BYTES } from '../input/lines.js';
import { jsonValues, parseJson } from '../input/json-values.js';
import type { HistoryIndex } from './dicechess-com/history-list.js';

/** What every reader may need besides its text. */
export interface ReadContext {
  /** dicechess.com game metadata by game id, from the player's history list. */
  history: HistoryIndex | null;
  /** Native NDJSON lines are handed on unparsed (see RawLines). */
  deferNative?: boolean;
}

export interface FormatModule {
  name: FormatName;
  read(src: TextSource, ctx: ReadContext): AsyncIterable<Draft>;
  /** The same drafts a chunk at a time, where a format is fast enough for the hand-over per draft to matter. */
  readBatches?(src: TextSource, ctx: ReadContext): AsyncIterable<Draft[]>;
  /** One record as text, ending with a newline (no header). */
  format(record: GameRecord): string;
  /** Written once before the first record (the CSV header line). */
  header?: string;
}

/** Where one document sits, and the id to use when the source gives none. */
export interface DocPlace {
  location: string;
  /** `<file basename>:<line>`. */
  derivedId: string;
  source: string;
  line: number;
}

export const basename = (name: string): string => (name === '-' ? 'stdin' : path.basename(name.replace(/[?#].*$/, '')));

export function docPlace(src: TextSource, line: number): DocPlace {
  return { location: `${src.name}:${line}`, derivedId: `${basename(src.name)}:${line}`, source: src.name, line };
}

/** Mutable while a document converts, so a failure can still name the record. */
export interface Attempt {
  id: string | null;
}

/**
 * Reads a JSON-family source (one document, NDJSON, concatenated documents or an
 * array) and converts each document on its own: one bad document is one unreadable
 * entry, never the end of the stream.
 */
export async function* readJsonDocs(
  src: TextSource,
  convert: (doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt) => GameRecordInput,
): AsyncGenerator<Draft> {
  for await (const doc of jsonValues(src)) {
    if (doc.tooLong !== undefined) {
      yield tooLarge(docPlace(src, doc.line).location, doc.tooLong, MAX_LINE_BYTES);
      continue;
    }
    const parsed = parseJson(doc.text);
    if (!parsed.ok && doc.oneLine) {
      // Not one document after all (e.g. two on one line): cut it the careful way.
      for await (const sub of jsonValues(TextSource.fromText(src.name, doc.text), false)) yield* convertDoc(src, { text: sub.text, line: doc.line }, convert);
      continue;
    }
    yield* convertDoc(src, doc, convert, parsed);
  }
}

function* convertDoc(
  src: TextSource,
  { text, line }: { text: string; line: number },
  convert: (doc: unknown, place: DocPlace, notes: Set<string>, attempt: Attempt) => GameRecordInput,
  parsedAlready?: ReturnType<typeof parseJson>,
): Generator<Draft> {
  {
    const place = docPlace(src, line);
    const parsed = parsedAlready ?? parseJson(text);
    if (!parsed.ok) {
      yield unreadable(problem('record.bad-json', `not valid JSON: ${parsed.message}`), place.location, guessId(text));
      return;
    }
    yield convertOne(() => {
      const notes = new Set<string>();
      const attempt: Attempt = { id: null };
      try {
        return finaliseRecord(convert(parsed.value, place, notes, attempt), notes);
      } catch (e) {
        if (e instanceof RecordProblem) throw new IdentifiedProblem(e, attempt.id);
        throw e;
      }
    }, place.location);
  }
}

class IdentifiedProblem extends Error {
  constructor(
    readonly inner: RecordProblem,
    readonly id: string | null,
  ) {
    super(inner.message);
  }
}

/** Runs one record's conversion; a RecordProblem becomes its unreadable entry. */
export function convertOne(run: () => GameRecord, location: string | null, id: string | null = null): Draft {
  try {
    return { kind: 'record', record: run() };
  } catch (e) {
    if (e instanceof IdentifiedProblem) return unreadable(e.inner.problem, location, e.id ?? id);
    if (e instanceof RecordProblem) return unreadable(e.problem, location, id);
    // A reader bug must not stop the stream either; it still counts as unreadable.
    return unreadable(problem('record.bad-field', `the record could not be converted: ${(e as Error)?.message ?? e}`), location, id);
  }
}

/** The record id of broken JSON text, when an id field is still legible. */
export function guessId(text: string): string | null {
  const m = /"(?:id|gameId|game_id)"\s*:\s*"([^"\\]{1,200})"/.exec(text.slice(0, 4096));
  return m ? m[1] : null;
}
