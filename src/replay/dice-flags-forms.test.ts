import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import type { GameRecord } from '../records/model/game-record.js';
import { collect, records } from '../records/test-support/collect.js';
import { prepareDialect, replayGame } from './replay-game.js';

// The per-die `allowed` flags (dicechess.com's state maps) say whether each die's piece can be
// spent: judged where each recorded die names a piece of the pool, and not for the forms whose
// faces are no such die (a count die, a piece die and a count die, an "any" face, a turn not rolled).
const dir = mkdtempSync(join(tmpdir(), 'dd-flags-forms-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
let serial = 0;
async function game(turns: Array<{ side: 'w' | 'b'; dice: number[]; moves: string[]; allowed: boolean[] }>): Promise<GameRecord> {
  const file = join(dir, `g${++serial}.ndjson`);
  const doc = {
    id: `00000000-0000-0000-0000-${String(serial).padStart(12, '0')}`,
    result: null,
    termination: 'unknown',
    initial_fen: START,
    turns: turns.map((t, i) => ({ turn_number: i + 1, active_color: t.side, dice: t.dice, moves: t.moves })),
  };
  writeFileSync(file, JSON.stringify(doc));
  const [r] = records(await collect([file]));
  r.turns.forEach((t, i) => (t.diceFlags = turns[i].allowed.map((allowed, k) => ({ allowed, used: k === 0 }))));
  return r;
}
function judge(name: string) {
  const d = loadDialect(name);
  if (!d.ok) throw new Error(d.error.map((p) => p.message).join('; '));
  return prepareDialect(name, d.value.rules);
}
const rules = (r: GameRecord, name: string): string[] => replayGame(r, judge(name), 0).findings.map((f) => f.rule);

describe('dice flags under the forms with rolls of their own', () => {
  it('judged where each die names a piece: a wrong flag on a three-dice roll is a finding, the right ones none', async () => {
    const turn = { side: 'w' as const, dice: [1, 2, 3], moves: ['e2e4', 'f1c4', 'b1c3'] };
    expect(rules(await game([{ ...turn, allowed: [true, true, true] }]), 'reference')).toEqual([]);
    expect(rules(await game([{ ...turn, allowed: [true, false, true] }]), 'reference')).toEqual(['dice.allowed-flag']);
  });

  it('Vegas Fun Chess without an "any" face: each die reads its own faces, and its flag is judged by that piece', async () => {
    // Die 1's 5 is a king, die 2's 2 a knight: the king cannot move, the knight can.
    const turn = { side: 'w' as const, dice: [5, 2], moves: ['g1f3'] };
    expect(rules(await game([{ ...turn, allowed: [false, true] }]), 'vegas-fun-chess')).toEqual([]);
    expect(rules(await game([{ ...turn, allowed: [true, true] }]), 'vegas-fun-chess')).toEqual(['dice.allowed-flag']);
  });

  it('not judged where a face is no die of one piece: a count die, a piece and a count die, an "any" face', async () => {
    // A count die showing 1 is one micro-move of any piece; a flag there says nothing of a piece.
    expect(rules(await game([{ side: 'w', dice: [1], moves: ['e2e4'], allowed: [true] }]), 'gollon-count-die')).toEqual([]);
    expect(rules(await game([{ side: 'w', dice: [2, 2], moves: ['g1f3', 'f3g5'], allowed: [false, false] }]), 'gollon-piece-and-count')).toEqual([]);
    expect(rules(await game([{ side: 'w', dice: [5, 6], moves: ['e2e4'], allowed: [false, false] }]), 'vegas-fun-chess')).toEqual([]);
  });
});
