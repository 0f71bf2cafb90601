import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameRecord } from '../model/game-record.js';
import type { ReadItem } from '../items.js';
import { type ReadOptions, readRecords } from '../read.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const fixture = (...parts: string[]): string => path.join(FIXTURES, ...parts);

export async function collect(sources: string[], opts?: ReadOptions): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readRecords(sources, opts)) out.push(item);
  return out;
}

export const records = (items: ReadItem[]): GameRecord[] => items.flatMap((i) => (i.kind === 'record' ? [i.record] : []));
export const unreadables = (items: ReadItem[]) => items.flatMap((i) => (i.kind === 'unreadable' ? [i] : []));

export function byId(items: ReadItem[], id: string): GameRecord {
  const r = records(items).find((x) => x.id === id);
  if (!r) throw new Error(`no record ${id}`);
  return r;
}
