import { isAscii, isUtf8 } from 'node:buffer';
import { noteInvalidUtf8 } from './input/utf8.js';
import { decodeNativeLine } from './formats/ndjson.js';
import type { RawLines, ReadItem } from './items.js';

/**
 * Parses the deferred native NDJSON lines of a raw item into the items `readRecords`
 * would have yielded, one at a time: a record can be judged and dropped before the next
 * is parsed, so records die young (cheap to collect).
 */
export function* decodeRawLines(item: RawLines): Generator<ReadItem> {
  const { spans } = item;
  const bytes = Buffer.from(item.bytes.buffer, item.bytes.byteOffset, item.bytes.byteLength);
  // Plain ASCII (the usual case) needs no UTF-8 decoding: a byte copy gives the same text.
  const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
  // Bytes that are not UTF-8 become U+FFFD: checked per line only when the whole chunk fails.
  const checkLines = encoding === 'utf8' && !isUtf8(bytes);
  for (let k = 0; k < spans.length; k += 3) {
    const index = item.index + k / 3;
    const d = decodeNativeLine(bytes.toString(encoding, spans[k], spans[k + 1]), `${item.source}:${spans[k + 2]}`);
    if (d.kind === 'record' && checkLines && !isUtf8(bytes.subarray(spans[k], spans[k + 1]))) noteInvalidUtf8(d.record);
    if (d.kind === 'record') yield { kind: 'record', index, record: d.record };
    else if (d.kind === 'unreadable') yield { kind: 'unreadable', index, source: item.source, location: d.location, id: d.id, code: d.code, message: d.message };
    else throw new Error('unreachable: decoding yields no raw items');
  }
}
