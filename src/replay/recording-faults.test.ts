import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import type { FormatName } from '../records/model/game-record.js';
import { collect, fixture, records, unreadables } from '../records/test-support/collect.js';
import { RECORDING_FAULTS, RULE_IDS, isNormalisedFault, isRecordingFault } from '../rules/rule-ids.js';
import { prepareDialect, replayGame } from './replay-game.js';

const dialect = (name: string) => {
  const loaded = loadDialect(name);
  if (!loaded.ok) throw new Error(name);
  return prepareDialect(name, loaded.value.rules);
};
const reference = dialect('reference');
const dicechess = dialect('dicechess-com');

const read = async (file: string, format?: FormatName) => {
  const items = await collect([fixture('recording-faults', file)], format ? { format } : {});
  expect(unreadables(items)).toEqual([]);
  const [record] = records(items);
  return record;
};

/** Fixture, the fault's code, the dialect that judges it. */
const NORMALISED: [string, string, typeof reference][] = [
  ['side-not-flipped-after-king-capture.ingest-wire.json', 'record.side-not-flipped-after-king-capture', reference],
  ['castling-after-king-capture.ingest-wire.json', 'record.castling-after-king-capture', reference],
  ['legacy-termination-unknown.ingest-wire.json', 'record.legacy-termination-unknown', reference],
  ['en-passant-not-canonical.ingest-wire.json', 'record.en-passant-not-canonical', reference],
  ['dice-letters.ingest-wire.json', 'record.dice-letters', reference],
  ['no-op-last-turn.ingest-wire.json', 'record.no-op-last-turn', reference],
  ['stake-zero-tournament.ingest-wire.json', 'record.stake-zero-tournament', reference],
  ['negative-id-bot.ingest-wire.json', 'record.negative-id-bot', reference],
  ['dice-digits.state-map.json', 'record.dice-digits', dicechess],
  ['promotion-none.state-map.json', 'record.promotion-none', dicechess],
  ['turn-boundary-from-dice-case.state-map.json', 'record.turn-boundary-from-dice-case', dicechess],
  ['trailing-blocked-dice.state-map.json', 'record.trailing-blocked-dice', dicechess],
];

describe('recording faults whose intent is certain: repaired with a note, never a finding', () => {
  for (const [file, code, d] of NORMALISED) {
    it(`${code} (${file})`, async () => {
      const record = await read(file);
      expect(record.notes).toContain(code);
      expect(isNormalisedFault(code)).toBe(true);
      const line = replayGame(record, d, 0);
      expect(line.findings).toEqual([]);
      expect(line.status).toBe('conforming');
    });
  }

  it('what each repair gives', async () => {
    expect((await read('side-not-flipped-after-king-capture.ingest-wire.json')).turns[4].fenAfter).toMatch(/ b - - /);
    expect((await read('castling-after-king-capture.ingest-wire.json')).turns[4].fenAfter).toMatch(/ b - - /);
    const legacy = await read('legacy-termination-unknown.ingest-wire.json');
    expect([legacy.termination, legacy.result]).toEqual(['king_captured', 'white']);
    expect((await read('en-passant-not-canonical.ingest-wire.json')).turns[0].fenAfter).toMatch(/ KQkq - /);
    expect((await read('promotion-none.state-map.json')).turns[0].moves).toEqual(['a7a8q']);
    expect((await read('negative-id-bot.ingest-wire.json')).players.black.kind).toBe('bot');
    expect((await read('turn-boundary-from-dice-case.state-map.json')).turns[0].side).toBe('w');
  });

  it('a no-op last turn is no pass: without the note it would be a rules divergence', async () => {
    const record = await read('no-op-last-turn.ingest-wire.json');
    const bare = { ...record, notes: record.notes.filter((n) => n !== 'record.no-op-last-turn') };
    expect(replayGame(bare, reference, 0).findings[0]?.rule).toBe('pass.not-allowed');
  });
});

describe('recording faults that hide information: the record’s problem (status faulty), never a rules divergence', () => {
  const REPORTED: [string, string, typeof reference, number | null][] = [
    ['rotated-board.ingest-wire.json', 'record.rotated-board', reference, 1],
    ['partial-turn-side-flipped.ingest-wire.json', 'record.partial-turn-side-flipped', reference, 1],
    ['collapsed-states.state-map.json', 'record.collapsed-states', dicechess, 1],
  ];
  for (const [file, code, d, turn] of REPORTED) {
    it(`${code} (${file})`, async () => {
      const record = await read(file);
      const line = replayGame(record, d, 0);
      expect(line.status).toBe('faulty');
      expect(line.findings.map((f) => [f.rule, f.turn])).toEqual([[code, turn]]);
      expect(RECORDING_FAULTS[code as keyof typeof RECORDING_FAULTS]).toBe('reported');
    });
  }

  it('a rotated board is told apart from a board that is simply wrong', async () => {
    const record = await read('rotated-board.ingest-wire.json');
    const wrong = { ...record, turns: record.turns.map((t, i) => (i === 0 ? { ...t, fenAfter: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1' } : t)) };
    expect(replayGame(wrong, reference, 0).findings[0].rule).toBe('record.fen-after-mismatch');
  });

  it('a bot game without a state map is its own unreadable code', async () => {
    // Kept out of the fixture folders every format is detected in: nothing in it tells its format but the name.
    const items = await collect([fileURLToPath(new URL('./fixtures/no-state-map.dicechess-com.json', import.meta.url))], { format: 'dicechess-com' });
    expect(unreadables(items).map((u) => u.code)).toEqual(['record.no-state-map']);
    expect(isRecordingFault('record.no-state-map')).toBe(true);
  });
});

describe('the registry', () => {
  it('names every recording fault as a record.* rule id with a sentence', () => {
    for (const code of Object.keys(RECORDING_FAULTS)) {
      expect(code.startsWith('record.')).toBe(true);
      expect(RULE_IDS[code as keyof typeof RULE_IDS]).toMatch(/\.$/);
    }
    expect(isRecordingFault('record.fen-after-mismatch')).toBe(false);
    expect(isRecordingFault('maximum.fewer-dice')).toBe(false);
  });
});
