import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRawRecords } from './raw-records.js';
import { readRecords } from './read.js';
import { randomGame } from './test-support/random-game.js';
import { collect, records } from './test-support/collect.js';
import { makeRecordText } from './write.js';
import type { GameRecord } from './model/game-record.js';

const dir = mkdtempSync(join(tmpdir(), 'invalid-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOTE = 'text:invalid-utf8';

/** Three records; the middle one has a player name holding a byte that is not UTF-8 (0xFF), the last a real U+FFFD. */
function corpus(format: 'ndjson' | 'history'): Buffer {
  const games = [0, 1, 2].map((i) => randomGame(700 + i, { turns: 2 }));
  games[1].players.white.name = 'MARKER1';
  games[2].players.white.name = 'Jos\uFFFD';
  const text = Buffer.from(games.map((g) => makeRecordText(format, g)).join(''));
  const at = text.indexOf('MARKER1');
  text[at + 6] = 0xff;
  return text;
}

const notesById = (rs: GameRecord[]) => rs.map((r) => [r.id, r.notes.includes(NOTE)]);

describe('invalid UTF-8 inside a record', () => {
  it('is replaced by U+FFFD and noted on that record (native NDJSON, read here and deferred to a worker)', async () => {
    const file = join(dir, 'games.ndjson');
    writeFileSync(file, corpus('ndjson'));
    const direct = records(await collect([file]));
    expect(direct[1].players.white.name).toBe('MARKER\uFFFD');
    expect(notesById(direct)).toEqual([['game-700', false], ['game-701', true], ['game-702', false]]);
    const deferred: GameRecord[] = [];
    for await (const item of readRecords([file], { deferRaw: true })) {
      if (item.kind === 'raw') for (const d of parseRawRecords(item)) if (d.kind === 'record') deferred.push(d.record);
    }
    expect(notesById(deferred)).toEqual([['game-700', false], ['game-701', true], ['game-702', false]]);
  });

  it('is noted in the other formats too', async () => {
    const file = join(dir, 'games.history.ndjson');
    writeFileSync(file, corpus('history'));
    const read = records(await collect([file]));
    expect(read).toHaveLength(3);
    expect(read[1].notes).toContain(NOTE);
    expect(read[0].notes).not.toContain(NOTE);
  });
});
