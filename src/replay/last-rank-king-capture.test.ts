import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { collect, records } from '../records/test-support/collect.js';
import { prepareDialect, replayGame } from './replay-game.js';

// Issue 11: another tool writes a pawn's king capture on the last rank with a promotion letter
// (standard UCI) and may show the promoted piece in the position after the turn.
const dir = mkdtempSync(join(tmpdir(), 'dd-king-capture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = 'r3k3/pp1NpP2/3p4/2p5/2B3P1/PP1Q3r/1P1P3P/RNB3KR w - - 0 25';
const wire = (id: string, move: string, fenAfter: string): string =>
  JSON.stringify({
    id,
    result: 1,
    termination: 'king_captured',
    initial_fen: START,
    turns: [{ turn_number: 1, active_color: 'w', dice: [1, 2], moves: [move], fen_after: fenAfter }],
  });

const wikipedia = (() => {
  const d = loadDialect('wikipedia-two-dice');
  if (!d.ok) throw new Error('wikipedia-two-dice');
  return prepareDialect('wikipedia-two-dice', d.value.rules);
})();

describe('a pawn taking the king on the last rank, as records from other tools write it', () => {
  it('reads f7e8q as f7e8, notes the spelling, and judges the game conforming with either board after it', async () => {
    const file = join(dir, 'games.ndjson');
    const pawnOnE8 = 'r3P3/pp1Np3/3p4/2p5/2B3P1/PP1Q3r/1P1P3P/RNB3KR b - - 0 25';
    const queenOnE8 = 'r3Q3/pp1Np3/3p4/2p5/2B3P1/PP1Q3r/1P1P3P/RNB3KR b - - 0 25';
    writeFileSync(
      file,
      [wire('00000000-0000-0000-0000-000000000001', 'f7e8q', queenOnE8), wire('00000000-0000-0000-0000-000000000002', 'F7E8', pawnOnE8), wire('00000000-0000-0000-0000-000000000003', 'f7e8=N', pawnOnE8)].join('\n'),
    );
    const [letter, plain, knight] = records(await collect([file]));
    expect(letter.turns[0].moves).toEqual(['f7e8']);
    expect(letter.notes).toContain('king-capture-on-last-rank:promotion-letter');
    expect(plain.turns[0].moves).toEqual(['f7e8']);
    expect(plain.notes).toContain('king-capture-on-last-rank:plain');
    expect(knight.turns[0].moves).toEqual(['f7e8']);
    for (const r of [letter, plain, knight]) expect(replayGame(r, wikipedia, 0)).toMatchObject({ status: 'conforming', findings: [] });
  });

  it('still reports a board that is neither the pawn nor a promoted piece', async () => {
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, wire('00000000-0000-0000-0000-000000000004', 'f7e8q', 'r3K3/pp1Np3/3p4/2p5/2B3P1/PP1Q3r/1P1P3P/RNB4R b - - 0 25'));
    const [r] = records(await collect([file]));
    expect(replayGame(r, wikipedia, 0).findings.map((f) => f.rule)).toEqual(['record.fen-after-mismatch']);
  });
});
