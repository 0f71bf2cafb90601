import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import type { GameRecord } from '../records/model/game-record.js';
import { collect, records } from '../records/test-support/collect.js';
import { prepareDialect, replayGame } from './replay-game.js';

// Issue 11: whether the repetition and move-counter draws are automatic or claimed decides
// what a record may show at its end (end.automatic-draw-missing, end.unknown-draw).
const dir = mkdtempSync(join(tmpdir(), 'dd-judge-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;
async function game(startFen: string, turns: Array<{ side: 'w' | 'b'; dice: number[]; moves: string[] }>, termination: string, result: number | null): Promise<GameRecord> {
  const file = join(dir, `g${++serial}.ndjson`);
  const doc = {
    id: `00000000-0000-0000-0000-${String(serial).padStart(12, '0')}`,
    result,
    termination,
    initial_fen: startFen,
    turns: turns.map((t, i) => ({ turn_number: i + 1, active_color: t.side, dice: t.dice, moves: t.moves })),
  };
  writeFileSync(file, JSON.stringify(doc));
  const [r] = records(await collect([file]));
  return r;
}

function rulesOf(name: string, ...overrides: string[]) {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(d.error.map((p) => p.message).join('; '));
  return prepareDialect(name, d.value.rules);
}
const rulesFound = (r: GameRecord, d: ReturnType<typeof rulesOf>): string[] => replayGame(r, d, 0).findings.map((f) => f.rule);

const CLAIM = rulesOf('wikipedia-two-dice');
const AUTOMATIC = rulesOf('wikipedia-two-dice', 'draws.ruleDraws=automatic');
const ROOK_AT_99 = '4k3/8/8/8/8/8/8/R3K3 w - - 99 60';

describe('draws by rule: claimed or automatic (draws.ruleDraws)', () => {
  it('a record ending in a draw by rule where the counter reached 100 conforms either way', async () => {
    const r = await game(ROOK_AT_99, [{ side: 'w', dice: [4, 2], moves: ['a1a2'] }], 'draw_rule', 0);
    expect(rulesFound(r, CLAIM)).toEqual([]);
    expect(rulesFound(r, AUTOMATIC)).toEqual([]);
  });

  it('a game that goes on past a claimable draw is fine when claimed, a game after its end when automatic', async () => {
    const r = await game(
      ROOK_AT_99,
      [
        { side: 'w', dice: [4, 2], moves: ['a1a2'] },
        { side: 'b', dice: [6, 1], moves: ['e8d8'] },
      ],
      'resign',
      1,
    );
    expect(rulesFound(r, CLAIM)).toEqual([]);
    expect(rulesFound(r, AUTOMATIC)).toEqual(['end.move-after-game-end']);
  });

  it('an agreed draw where the draw is automatic misses it; where it is claimed, nobody had to claim', async () => {
    const r = await game(ROOK_AT_99, [{ side: 'w', dice: [4, 2], moves: ['a1a2'] }], 'draw_agreement', 0);
    expect(rulesFound(r, CLAIM)).toEqual([]);
    expect(rulesFound(r, AUTOMATIC)).toEqual(['end.automatic-draw-missing']);
    const resigned = await game(ROOK_AT_99, [{ side: 'w', dice: [4, 2], moves: ['a1a2'] }], 'resign', -1);
    expect(rulesFound(resigned, CLAIM)).toEqual([]);
    expect(rulesFound(resigned, AUTOMATIC)).toEqual(['end.result-mismatch']);
  });

  it('a draw by rule with nothing to claim is an unknown draw, and a claimed draw must be scored a draw', async () => {
    const early = await game('4k3/8/8/8/8/8/8/R3K3 w - - 97 60', [{ side: 'w', dice: [4, 2], moves: ['a1a2'] }], 'draw_rule', 0);
    expect(rulesFound(early, CLAIM)).toEqual(['end.unknown-draw']);
    expect(rulesFound(early, AUTOMATIC)).toEqual(['end.unknown-draw']);
    const won = await game(ROOK_AT_99, [{ side: 'w', dice: [4, 2], moves: ['a1a2'] }], 'draw_rule', 1);
    expect(rulesFound(won, CLAIM)).toEqual(['end.result-mismatch']);
  });

  it('a record going on past fivefold repetition breaks the claim rules too', async () => {
    const passes = [
      { side: 'w' as const, dice: [5, 4], moves: [] },
      { side: 'b' as const, dice: [5, 3], moves: [] },
    ];
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
    const threefold = await game(start, [...passes, ...passes], 'draw_rule', 0);
    expect(rulesFound(threefold, CLAIM)).toEqual([]);
    const fivefold = await game(start, [...passes, ...passes, ...passes, ...passes, { side: 'w', dice: [1, 1], moves: ['e2e4'] }], 'resign', 1);
    expect(rulesFound(fivefold, CLAIM)).toEqual(['end.move-after-game-end']);
    // Positions reached by passes not counted: nothing repeats.
    expect(rulesFound(threefold, rulesOf('wikipedia-two-dice', 'draws.repetitionCountsPasses=false'))).toEqual(['end.unknown-draw']);
  });
});

describe('material (draws.insufficientMaterial) and the flag fall', () => {
  it('K+B v K wins on time only where taking the king counts as a way to win', async () => {
    // Black (bare king) passes on a pawn and knight roll, then loses on time.
    const r = await game('4k3/8/8/8/8/8/8/3BK3 b - - 5 60', [{ side: 'b', dice: [1, 2], moves: [] }], 'timeout', 1);
    expect(rulesFound(r, CLAIM)).toEqual(['end.result-mismatch']);
    expect(rulesFound(r, rulesOf('wikipedia-two-dice', 'draws.insufficientMaterial=cannot-win'))).toEqual([]);
  });
});
