import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { HistoryIndex } from './formats/dicechess-com/history-list.js';
import type { RawRecords, ReadItem } from './items.js';
import { parseRawRecords } from './raw-records.js';
import { readRecords } from './read.js';
import { sidecarOf, shareSidecar } from './shared-sidecar.js';
import { byId, collect, fixture } from './test-support/collect.js';

const HISTORY_LIST = fixture('dicechess-com-history-list.json');

/** What a worker receives: the item structured-cloned through a real message port. */
function throughPort<T>(value: T): T {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(value);
  const got = receiveMessageOnPort(port2)!.message as T;
  port1.close();
  port2.close();
  return got;
}

describe('a history list (dicechess.com\'s sidecar) travels with raw records', () => {
  it('records stay raw for the workers, and decoded there they carry the metadata, as decoded on the reading thread', async () => {
    const raw: Array<ReadItem | RawRecords> = [];
    for await (const item of readRecords([fixture('dicechess-com')], { historyList: HISTORY_LIST, deferRaw: true })) raw.push(item);
    expect(raw.some((i) => i.kind === 'record')).toBe(false);
    const decoded = raw.flatMap((i) => (i.kind === 'raw' ? [...parseRawRecords(throughPort(i))] : [i]));
    const here = await collect([fixture('dicechess-com')], { historyList: HISTORY_LIST });
    expect(decoded).toStrictEqual(here);
    const game = byId(decoded, '1f0c3a80-6d4e-11f0-9a6b-0242ac120002');
    expect(game.players.white.rating).toBe(1510);
    expect(game.startedAt).toBe('2025-07-30T21:05:00Z');
  });

  it('a thread that has not seen the list reads it from shared memory, every value exact', () => {
    const index: HistoryIndex = new Map([
      ['g1', { gameId: 'g1', whiteRating: -0, result: 'WIN', nested: { a: [1, null, 'x'] } }],
      ['g2', { gameId: 'g2', ['__proto__']: 5 }],
    ]);
    const shared = shareSidecar(index);
    const elsewhere = sidecarOf({ key: `${shared.key}:elsewhere`, bytes: throughPort(shared).bytes }) as HistoryIndex;
    expect(elsewhere).not.toBe(index);
    expect(elsewhere).toStrictEqual(index);
    expect(Object.is(elsewhere.get('g1')!.whiteRating, -0)).toBe(true);
  });
});

describe('a sidecar is its format\'s own', () => {
  it('travels only with the raw records of its format', async () => {
    const raw: Array<ReadItem | RawRecords> = [];
    for await (const item of readRecords([fixture('dicechess-com'), fixture('history')], { historyList: HISTORY_LIST, deferRaw: true })) raw.push(item);
    const formats = new Map<string, boolean>();
    for (const item of raw) if (item.kind === 'raw') formats.set(item.format, (formats.get(item.format) ?? false) || item.sidecar !== undefined);
    expect(formats.get('dicechess-com')).toBe(true);
    expect(formats.get('history')).toBe(false);
  });
});
