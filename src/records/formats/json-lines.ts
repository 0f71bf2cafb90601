import { CLOSE_BRACE, CR, NL, OPEN_BRACE } from '../char-codes.js';
import { MAX_LINE_BYTES } from '../input/lines.js';
import { cutJsonText, jsonValues } from '../input/json-values.js';
import { TextSource } from '../input/text-source.js';
import { type Draft, RAW_WHOLE_LINE, tooLarge } from '../items.js';
import type { FormatName } from '../model/game-record.js';

/** Bytes of documents a legacy-cut raw draft collects before it is handed on. */
const LEGACY_BATCH = 256 * 1024;
/** Bytes the careful cutter is given at most before a line break is seen. */
const REREAD_BYTES = 1024 * 1024;

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === CR;

/** The pieces joined in a buffer of exactly their size (never a slice of Node's shared pool). */
function ownCopy(pieces: Buffer[]): Buffer {
  let size = 0;
  for (const p of pieces) size += p.length;
  // Not zero-filled first: every byte is written just below.
  const whole = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const p of pieces) {
    whole.set(p, at);
    at += p.length;
  }
  return whole;
}

/**
 * A JSON-family source as raw records, cut in bytes without decoding: while every line is
 * one document (`{` … `}` with blanks around: NDJSON, what the sites' APIs give), each line
 * is a record and nothing is scanned but the line breaks. At the first line that is not
 * (a pretty-printed document, an array, a broken line, a line over the limit) the rest of
 * the source is cut by `jsonValues`, as before, and its documents travel as raw records too.
 * Either way the records are the ones `jsonValues` cuts, on the same lines.
 */
export async function* jsonRawBatches(src: TextSource, format: FormatName, own = true): AsyncGenerator<Draft[]> {
  const it = src.bytes()[Symbol.asyncIterator]();
  let line = 0; // lines before `pending`
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let docs = 0;
  try {
    for (;;) {
      const next = await it.next();
      const chunk = next.done ? null : next.value;
      if (chunk === null && (src.failure !== null || pendingBytes === 0)) {
        // At a source failure the unfinished last line is the lost rest's, unless it is a whole document already.
        if (pendingBytes > 0) yield* legacy(src, format, pending, null, line, docs > 0);
        return;
      }
      const cut = chunk === null ? -1 : chunk.lastIndexOf(NL);
      if (chunk !== null && cut < 0) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes > MAX_LINE_BYTES) {
          // An over-long line: the careful cutter scans it to its end without keeping it.
          yield* legacy(src, format, pending, it, line, docs > 0);
          return;
        }
        continue;
      }
      const head = chunk === null ? null : chunk.subarray(0, cut + 1);
      // The lines in memory of their own (the chunk may share its buffer with the next one), copied
      // once: the records are handed on as this buffer, whole, so it can be moved to a worker
      // (judged on this thread only, they stay where they were read).
      const pieces = head === null ? pending : [...pending, head];
      const whole = own ? ownCopy(pieces) : pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
      const rest = chunk === null ? null : chunk.subarray(cut + 1);
      const spans: number[] = [];
      let stop = -1; // where a line that is not one document starts
      for (let start = 0; start < whole.length; ) {
        let nl = whole.indexOf(NL, start);
        if (nl < 0) nl = whole.length;
        if (nl - start > MAX_LINE_BYTES) {
          stop = start;
          break;
        }
        let a = start;
        let b = nl;
        while (a < b && isBlank(whole[a])) a++;
        while (b > a && isBlank(whole[b - 1])) b--;
        if (a < b) {
          if (whole[a] !== OPEN_BRACE || whole[b - 1] !== CLOSE_BRACE) {
            stop = start;
            break;
          }
          spans.push(a, b, line + 1, RAW_WHOLE_LINE);
          docs++;
        }
        line++;
        start = nl + 1;
      }
      if (spans.length) {
        // Up to a line that is not one document, the rest of the buffer is cut by `legacy`: a copy then.
        const bytes = stop < 0 ? whole : new Uint8Array(whole.subarray(0, stop));
        yield [{ kind: 'raw', format, header: null, bytes, spans: Int32Array.from(spans) }];
      }
      if (stop >= 0) {
        yield* legacy(src, format, rest === null || rest.length === 0 ? [whole.subarray(stop)] : [whole.subarray(stop), rest], chunk === null ? null : it, line, docs > 0);
        return;
      }
      pending = rest !== null && rest.length > 0 ? [rest] : [];
      pendingBytes = rest?.length ?? 0;
      if (chunk === null) return;
    }
  } finally {
    await it.return?.(undefined);
  }
}

/**
 * The rest of a source cut by `jsonValues` (character scan), from a line start: `head`,
 * then what `it` still gives. Each document becomes a raw record. A first line is put
 * before the text so that the cutter starts in the state the byte cutter leaves: after
 * documents (`{}`, dropped: a `[` then starts no top-level array) or at a line start (a
 * line break: the text never starts with gzip's magic bytes or a BOM to strip).
 */
async function* legacy(src: TextSource, format: FormatName, head: Buffer[], it: AsyncIterator<Buffer> | null, linesBefore: number, afterDoc: boolean): AsyncGenerator<Draft[]> {
  const rest = new TextSource(src.name, async function* () {
    yield Buffer.from(afterDoc ? '{}\n' : '\n');
    // Reads end at line breaks (up to a limit), so the cutter takes a whole-line document whole however the bytes came.
    let held: Buffer[] = [];
    let size = 0;
    const more = async function* (chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const c of chunks) {
        held.push(c);
        size += c.length;
        const cut = c.lastIndexOf(NL);
        if (cut < 0 && size < REREAD_BYTES) continue;
        const joined = Buffer.concat(held, size);
        const at = cut < 0 ? joined.length : joined.length - (c.length - cut - 1);
        yield joined.subarray(0, at);
        held = at < joined.length ? [joined.subarray(at)] : [];
        size = joined.length - at;
      }
    };
    yield* more(head);
    if (it !== null) yield* more({ [Symbol.asyncIterator]: () => it });
    if (size > 0) yield Buffer.concat(held, size);
    if (src.failure) throw src.failure;
  });
  const offset = linesBefore - 1;
  let skip = afterDoc;
  let parts: Buffer[] = [];
  let bytes = 0;
  let spans: number[] = [];
  const flush = (): Draft[] => {
    const raw: Draft = { kind: 'raw', format, header: null, bytes: ownCopy(parts), spans: Int32Array.from(spans) };
    parts = [];
    bytes = 0;
    spans = [];
    return [raw];
  };
  for await (const doc of jsonValues(rest)) {
    if (skip) {
      skip = false;
      continue;
    }
    if (doc.tooLong !== undefined) {
      if (spans.length) yield flush();
      yield [tooLarge(`${src.name}:${doc.line + offset}`, doc.tooLong, MAX_LINE_BYTES)];
      continue;
    }
    const b = Buffer.from(doc.text);
    spans.push(bytes, bytes + b.length, doc.line + offset, doc.oneLine ? RAW_WHOLE_LINE : 0);
    parts.push(b);
    bytes += b.length;
    if (bytes >= LEGACY_BATCH) yield flush();
  }
  if (spans.length) yield flush();
  // The outer source's failure is reported by its reader (readRecords), not here.
}

/**
 * The documents of one line that did not parse as one document, cut as `jsonValues`
 * cuts them without its one-line shortcut (e.g. `{…} {…}`, or a broken stretch): the
 * same cutter, on a line of text in memory, synchronously (workers decode in one go).
 */
export const splitLine = (text: string): string[] => cutJsonText(text).map((d) => d.text);
