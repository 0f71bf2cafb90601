import { MAX_LINE_BYTES, eachLine, isBlankBytes, wholeLineChunks } from '../input/lines.js';
import type { TextSource } from '../input/text-source.js';
import { type Draft, tooLarge } from '../items.js';
import type { FormatName } from '../model/game-record.js';

/**
 * A source of one record per line as raw records: whole lines as bytes with their spans,
 * one draft per chunk, no text decoded here. Blank lines (and lines `skip` says so of)
 * are passed over; an over-long line is one record.too-large entry in its place.
 */
export async function* lineRawBatches(src: TextSource, format: FormatName, skip?: (bytes: Buffer, start: number, end: number) => boolean): AsyncGenerator<Draft[]> {
  let line = 0;
  for await (const chunk of wholeLineChunks(src)) {
    if (typeof chunk === 'number') {
      yield [tooLarge(`${src.name}:${++line}`, chunk, MAX_LINE_BYTES)];
      continue;
    }
    const spans: number[] = [];
    eachLine(chunk, (start, end) => {
      line++;
      if (!isBlankBytes(chunk, start, end) && !skip?.(chunk, start, end)) spans.push(start, end, line, 0);
    });
    // A copy with its own memory (the chunk may share its buffer with the next one), so it can be moved to a worker.
    if (spans.length) yield [{ kind: 'raw', format, header: null, bytes: new Uint8Array(chunk), spans: Int32Array.from(spans) }];
  }
}
