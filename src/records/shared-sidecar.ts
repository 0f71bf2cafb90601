// node:v8 is loaded when a sidecar is first shared or read, not by every run that loads the readers (about 2 ms of a start).
const v8 = (): typeof import('node:v8') => process.getBuiltinModule('node:v8');

/**
 * A format's sidecar (metadata from files of its own, such as dicechess.com's history list) as
 * it travels with raw records to the worker threads: serialised once into shared memory, so
 * every batch carries a reference (a shared buffer is not copied between threads) and each
 * thread reads it once, by `key`. Records thus stay raw with a sidecar too, and are decoded
 * where they are judged.
 */
export interface SharedSidecar {
  key: string;
  bytes: SharedArrayBuffer;
}

let made = 0;
/** The sidecars of this thread by key: the ones it shared, or the ones it read from shared memory. */
const values = new Map<string, unknown>();

export function shareSidecar(value: unknown): SharedSidecar {
  // v8's serialisation keeps every value exactly (a JSON round trip would not keep -0).
  const data = v8().serialize(value);
  const bytes = new SharedArrayBuffer(data.byteLength);
  new Uint8Array(bytes).set(data);
  const shared = { key: `${process.pid}:${++made}`, bytes };
  remember(shared.key, value);
  return shared;
}

export function sidecarOf(shared: SharedSidecar): unknown {
  let value = values.get(shared.key);
  if (value === undefined) {
    value = v8().deserialize(new Uint8Array(shared.bytes));
    remember(shared.key, value);
  }
  return value;
}

/** A run reads one sidecar (all its files merged); a few are kept for tools that read several runs in one process. */
function remember(key: string, value: unknown): void {
  if (values.size >= 4) values.delete(values.keys().next().value!);
  values.set(key, value);
}
