import type { ReadItem } from './items.js';

/** Codes of an unreadable entry that stands for a whole source (it could not be opened, fetched or told apart). */
const SOURCE_CODES = new Set(['record.io', 'record.http', 'record.unknown-format']);

/**
 * True for the entry of a source that could not be read at all (not one bad record in
 * it): every command that reads sources exits 2 for one, as for a usage error.
 */
export function isSourceFailure(item: Pick<Extract<ReadItem, { kind: 'unreadable' }>, 'id' | 'code'> & { kind?: string }): boolean {
  return item.id === null && SOURCE_CODES.has(item.code);
}
