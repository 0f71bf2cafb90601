import { FORMATS } from './formats/index.js';
import { type ReadContext, parseSpans } from './formats/format.js';
import type { RawRecords, ReadItem } from './items.js';
import { sidecarOf } from './shared-sidecar.js';

const NO_CONTEXT: ReadContext = { sidecar: null };

/**
 * Decodes the raw records of an item into the items `readRecords` gives, one at a time
 * (each by its format's `parse`): a record can be judged and dropped before the next is
 * decoded, so records die young (cheap to collect). Every item of a record keeps its
 * index (a line holding several JSON documents gives several items of one index).
 */
export function* parseRawRecords(item: RawRecords): Generator<ReadItem> {
  const ctx: ReadContext = item.sidecar ? { sidecar: sidecarOf(item.sidecar) } : NO_CONTEXT;
  let index = item.index;
  for (const d of parseSpans(FORMATS[item.format], item, item.source, ctx, (i) => (index = item.index + i))) {
    if (d.kind === 'record') yield { kind: 'record', index, record: d.record };
    else if (d.kind === 'unreadable') yield { kind: 'unreadable', index, source: item.source, location: d.location, id: d.id, code: d.code, message: d.message };
    else throw new Error('unreachable: decoding yields no raw items');
  }
}
