import type { FormatName } from '../records/model/game-record.js';
import { type ReadOptions, readRecords, recordsIn, type SourceNote } from '../records/index.js';
import { type RawRecords, SPAN } from '../records/items.js';
import type { BatchItem } from './batch.js';
import { fileHash } from './run-info.js';
import { type PlannedUnit, type ShardSpec, stripeOwner } from './shard-plan.js';

/**
 * A unit this shard read: where its records start in the shard's own numbering, how many
 * it holds (all of them, judged here or not), and its bytes' hash (null: not a file).
 */
export interface UnitRead {
  unit: number;
  localStart: number;
  records: number;
  sha256: Promise<string | null>;
}

/**
 * The records shard K judges, in input order: every record of the units it owns, and its
 * blocks of the striped ones; units owned by other shards are never opened. Records are
 * numbered within the shard (each unit read continues the count, judged or not), so
 * `merge` turns a shard's index into the run's by the unit's offset alone.
 */
export async function* shardItems(
  plan: PlannedUnit[],
  shard: ShardSpec,
  opts: {
    format: FormatName | 'auto';
    limit?: number;
    block: number;
    read: Pick<ReadOptions, 'historyList' | 'http'>;
    onUnit: (u: UnitRead) => void;
    /** A note about a source, with its place in the run: [unit, order within the unit]. */
    onNote: (note: SourceNote, at: [number, number]) => void;
  },
): AsyncGenerator<BatchItem> {
  let localStart = 0;
  for (let u = 0; u < plan.length; u++) {
    const unit = plan[u];
    if (unit.owner !== null && unit.owner !== shard.k) continue;
    if (unit.kind === 'note') {
      opts.onNote(unit.note!, [u, 0]);
      continue;
    }
    // With a limit every unit is striped and read by every shard, so localStart is the run's own count.
    const remaining = opts.limit === undefined ? undefined : opts.limit - localStart;
    if (remaining !== undefined && remaining <= 0) break;
    const sha256 = unit.kind === 'file' ? fileHash(unit.name) : Promise.resolve(null);
    let records = 0;
    let notes = 0;
    // A striped unit is read by every shard: its notes are shard 1's to keep.
    const onNote = unit.owner !== null || shard.k === 1 ? (note: SourceNote) => opts.onNote(note, [u, notes++]) : undefined;
    const input = unit.input ?? { kind: 'file' as const, path: unit.name };
    for await (const item of readRecords([unit.name], { ...opts.read, expanded: [input], format: opts.format, limit: remaining, deferRaw: true, onNote })) {
      const count = item.kind === 'raw' ? recordsIn(item) : 1;
      records = item.index + count;
      if (unit.owner !== null) {
        yield { ...item, index: item.index + localStart } as BatchItem;
        continue;
      }
      if (item.kind !== 'raw') {
        if (stripeOwner(item.index, shard.n, opts.block) === shard.k) yield { ...item, index: item.index + localStart };
        continue;
      }
      // A raw item may cross block boundaries: keep the runs of lines in this shard's blocks.
      for (let r = item.index; r < item.index + count; ) {
        const end = Math.min(item.index + count, (Math.floor(r / opts.block) + 1) * opts.block);
        if (stripeOwner(r, shard.n, opts.block) === shard.k) yield sliceRaw(item, r - item.index, end - item.index, localStart);
        r = end;
      }
    }
    opts.onUnit({ unit: u, localStart, records, sha256 });
    localStart += records;
  }
}

/** Records [from, to) of a raw item as an item of their own (bytes copied, so it can be moved to a worker alone). */
function sliceRaw(item: RawRecords, from: number, to: number, shift: number): RawRecords {
  if (from === 0 && to === recordsIn(item)) return { ...item, index: item.index + shift };
  const start = item.spans[from * SPAN];
  const end = item.spans[(to - 1) * SPAN + 1];
  const spans = item.spans.slice(from * SPAN, to * SPAN);
  for (let k = 0; k < spans.length; k += SPAN) {
    spans[k] -= start;
    spans[k + 1] -= start;
  }
  return { ...item, index: item.index + from + shift, bytes: item.bytes.slice(start, end), spans };
}
