import { deserialize, serialize } from 'node:v8';
import type { HistoryIndex } from './formats/dicechess-com/history-list.js';

/**
 * A loaded history list as it travels with raw records to the worker threads: its rows
 * serialised once into shared memory, so every batch carries a reference (a shared buffer
 * is not copied between threads) and each thread reads the rows once, by `key`. Records
 * thus stay raw with a history list too, and are decoded where they are judged.
 */
export interface SharedHistory {
  key: string;
  bytes: SharedArrayBuffer;
}

let made = 0;
/** The indexes of this thread by key: the one it shared, or the ones it read from shared memory. */
const indexes = new Map<string, HistoryIndex>();

export function shareHistory(index: HistoryIndex): SharedHistory {
  // v8's serialisation keeps every value exactly (a JSON round trip would not keep -0).
  const data = serialize(index);
  const bytes = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(bytes).set(data);
  const shared = { key: `${process.pid}:${++made}`, bytes };
  remember(shared.key, index);
  return shared;
}

export function historyOf(shared: SharedHistory): HistoryIndex {
  let index = indexes.get(shared.key);
  if (index === undefined) {
    index = deserialize(new Uint8Array(shared.bytes)) as HistoryIndex;
    remember(shared.key, index);
  }
  return index;
}

/** A run reads one history (all its lists merged); a few are kept for tools that read several runs in one process. */
function remember(key: string, index: HistoryIndex): void {
  if (indexes.size >= 4) indexes.delete(indexes.keys().next().value!);
  indexes.set(key, index);
}
