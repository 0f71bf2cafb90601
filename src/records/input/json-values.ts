import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, CR, NL, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../char-codes.js';
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


const isSpace = (c: number): boolean => c === 32 || c === 9 || c === CR || c === NL || c === 0xfeff;

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
  const cutter = new JsonCutter(fastLines, maxChars);
  for await (const chunk of src.chunks()) yield* cutter.feed(chunk);
  if (src.failure === null) yield* cutter.end();
}

/** The documents of a text in memory, cut as `jsonValues` cuts it without its one-line shortcut (`{…} {…}` on one line gives two). */
export function cutJsonText(text: string): JsonText[] {
  const cutter = new JsonCutter(false, Infinity);
  return [...cutter.feed(text), ...cutter.end()];
}

/** The cutting of `jsonValues`, a chunk at a time: its state carries over from one chunk to the next. */
class JsonCutter {
  private mode: 'unknown' | 'values' | 'array' = 'unknown';
  private parts: string[] = [];
  private inValue = false;
  /** A stretch that does not start like a document: runs to the end of its line. */
  private junk = false;
  private depth = 0;
  private inStr = false;
  private esc = false;
  private lineStart = true;
  private line = 1;
  private startLine = 1;
  private held = 0;
  /** Characters of an over-long document passed over so far, or -1. */
  private dropped = -1;

  constructor(
    private readonly fastLines: boolean,
    private readonly maxChars: number,
  ) {}

  /** The documents that end in this chunk. */
  feed(chunk: string): JsonText[] {
    const out: JsonText[] = [];
    let from = 0; // start of the current value's text within this chunk
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (this.inValue) {
        if (this.junk || this.inStr) {
          // A raw line break ends a junk stretch, and a string unless escaped: the stretch is one broken document.
          if (c === NL && !this.esc) {
            this.keep(chunk.slice(from, i));
            out.push(this.done());
            this.inValue = this.junk = this.inStr = false;
            this.line++;
            this.lineStart = true;
          } else if (this.inStr) {
            if (this.esc) this.esc = false;
            else if (c === BACKSLASH) this.esc = true;
            else if (c === QUOTE) this.inStr = false;
          }
          continue;
        }
        if (c === QUOTE) this.inStr = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          if (this.lineStart && c === OPEN_BRACE && this.mode === 'values') {
            // A new document at the start of a line: the open one was broken.
            this.keep(chunk.slice(from, i));
            out.push(this.done());
            from = i;
            this.startLine = this.line;
            this.depth = 1;
          } else this.depth++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--this.depth === 0) {
            this.keep(chunk.slice(from, i + 1));
            out.push(this.done());
            this.inValue = false;
          }
        } else if (c === NL) this.line++;
        this.lineStart = c === NL;
        continue;
      }
      // Between documents.
      if (c === NL) {
        this.line++;
        this.lineStart = true;
        continue;
      }
      if (isSpace(c)) continue;
      // NDJSON fast path: a line that starts with { and ends with } is taken whole, without
      // scanning it character by character (documents of tens of kB make that the cost).
      if (this.fastLines && this.lineStart && c === OPEN_BRACE && this.mode !== 'array') {
        const nl = chunk.indexOf('\n', i);
        let end = nl;
        while (end > i && isSpace(chunk.charCodeAt(end - 1))) end--;
        if (nl >= 0 && chunk.charCodeAt(end - 1) === CLOSE_BRACE) {
          this.mode = 'values';
          out.push({ text: chunk.slice(i, end), line: this.line, oneLine: true });
          i = nl;
          this.line++;
          continue;
        }
      }
      this.lineStart = false;
      if (this.mode === 'unknown') {
        if (c === OPEN_BRACKET) {
          this.mode = 'array';
          continue;
        }
        this.mode = 'values';
      }
      if (this.mode === 'array' && (c === COMMA || c === CLOSE_BRACKET)) continue;
      this.inValue = true;
      from = i;
      this.startLine = this.line;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.depth = 1;
        this.junk = false;
      } else this.junk = true;
    }
    if (this.inValue) this.keep(chunk.slice(from));
    return out;
  }

  /** The document still open where the text ends. */
  end(): JsonText[] {
    return this.inValue ? [this.done()] : [];
  }

  private keep(text: string): void {
    if (this.dropped >= 0) this.dropped += text.length;
    else {
      this.parts.push(text);
      this.held += text.length;
      if (this.held > this.maxChars) {
        this.dropped = this.held;
        this.parts = [];
      }
    }
  }

  private done(): JsonText {
    const doc: JsonText = this.dropped >= 0 ? { text: '', line: this.startLine, tooLong: this.dropped } : { text: this.parts.join(''), line: this.startLine };
    this.parts = [];
    this.held = 0;
    this.dropped = -1;
    return doc;
  }
}

/** JSON.parse as a value: the document or the parser's complaint. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
