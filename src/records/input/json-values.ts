import { MAX_LINE_BYTES } from './lines.js';
import type { TextSource } from './text-source.js';

export interface JsonText {
  /** The text of one JSON document (or of a broken stretch to report as bad JSON). */
  text: string;
  /** 1-based line where it starts. */
  line: number;
  /** Cut by the one-line fast path without scanning: if it does not parse, rescan it (it may hold several documents). */
  oneLine?: boolean;
  /** Set when the document was longer than the limit: its length in characters (`text` is then empty). */
  tooLong?: number;
}

const NL = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 13 || c === NL || c === 0xfeff;

/**
 * Cuts a stream of JSON into documents without holding more than one: NDJSON,
 * concatenated (pretty-printed) documents, or the elements of one top-level array.
 * A broken document does not swallow the next one: a raw line break inside a string,
 * or a `{` at the start of a line while a document is still open, ends the broken
 * stretch (pretty printers indent nested objects), which the caller reports as bad
 * JSON. At a source failure the unfinished document is dropped (it is part of the
 * lost rest). A document longer than `maxChars` is scanned to its end but not kept.
 */
export async function* jsonValues(src: TextSource, fastLines = true, maxChars = MAX_LINE_BYTES): AsyncGenerator<JsonText> {
  let mode: 'unknown' | 'values' | 'array' = 'unknown';
  let parts: string[] = [];
  let inValue = false;
  let junk = false; // a stretch that does not start like a document: runs to the end of its line
  let depth = 0;
  let inStr = false;
  let esc = false;
  let lineStart = true;
  let line = 1;
  let startLine = 1;
  let held = 0;
  /** Characters of an over-long document passed over so far, or -1. */
  let dropped = -1;
  const keep = (text: string): void => {
    if (dropped >= 0) dropped += text.length;
    else {
      parts.push(text);
      held += text.length;
      if (held > maxChars) {
        dropped = held;
        parts = [];
      }
    }
  };
  const done = (): JsonText => {
    const doc: JsonText = dropped >= 0 ? { text: '', line: startLine, tooLong: dropped } : { text: parts.join(''), line: startLine };
    parts = [];
    held = 0;
    dropped = -1;
    return doc;
  };

  for await (const chunk of src.chunks()) {
    let from = 0; // start of the current value's text within this chunk
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (inValue) {
        if (junk || inStr) {
          // A raw line break ends a junk stretch, and a string unless escaped: the stretch is one broken document.
          if (c === NL && !esc) {
            keep(chunk.slice(from, i));
            yield done();
            inValue = junk = inStr = false;
            line++;
            lineStart = true;
          } else if (inStr) {
            if (esc) esc = false;
            else if (c === BACKSLASH) esc = true;
            else if (c === QUOTE) inStr = false;
          }
          continue;
        }
        if (c === QUOTE) inStr = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          if (lineStart && c === OPEN_BRACE && mode === 'values') {
            // A new document at the start of a line: the open one was broken.
            keep(chunk.slice(from, i));
            yield done();
            from = i;
            startLine = line;
            depth = 1;
          } else depth++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--depth === 0) {
            keep(chunk.slice(from, i + 1));
            yield done();
            inValue = false;
          }
        } else if (c === NL) line++;
        lineStart = c === NL;
        continue;
      }
      // Between documents.
      if (c === NL) {
        line++;
        lineStart = true;
        continue;
      }
      if (isSpace(c)) continue;
      // NDJSON fast path: a line that starts with { and ends with } is taken whole, without
      // scanning it character by character (documents of tens of kB make that the cost).
      if (fastLines && lineStart && c === OPEN_BRACE && mode !== 'array') {
        const nl = chunk.indexOf('\n', i);
        let end = nl;
        while (end > i && isSpace(chunk.charCodeAt(end - 1))) end--;
        if (nl >= 0 && chunk.charCodeAt(end - 1) === CLOSE_BRACE) {
          mode = 'values';
          yield { text: chunk.slice(i, end), line, oneLine: true };
          i = nl;
          line++;
          continue;
        }
      }
      lineStart = false;
      if (mode === 'unknown') {
        if (c === OPEN_BRACKET) {
          mode = 'array';
          continue;
        }
        mode = 'values';
      }
      if (mode === 'array' && (c === COMMA || c === CLOSE_BRACKET)) continue;
      inValue = true;
      from = i;
      startLine = line;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth = 1;
        junk = false;
      } else junk = true;
    }
    if (inValue) keep(chunk.slice(from));
  }
  if (inValue && src.failure === null) yield done();
}

/** JSON.parse as a value: the document or the parser's complaint. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
