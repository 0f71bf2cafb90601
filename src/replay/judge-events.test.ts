import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import type { GameRecord } from '../records/model/game-record.js';
import { collect, records } from '../records/test-support/collect.js';
import { prepareDialect, replayGame } from './replay-game.js';

const dir = mkdtempSync(join(tmpdir(), 'dd-judge-events-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const TURNS = [
  { turn_number: 1, active_color: 'w', dice: [1, 1, 2], moves: ['e2e4', 'd2d4', 'g1f3'] },
  { turn_number: 2, active_color: 'b', dice: [1, 1, 2], moves: ['e7e5', 'd7d5', 'g8f6'] },
];

let serial = 0;
/** An ingest-wire record of two opening turns with these events and this end, read back by the records reader. */
async function game(extra: Record<string, unknown>): Promise<GameRecord> {
  const file = join(dir, `g${++serial}.ndjson`);
  const doc = { id: `00000000-0000-0000-0000-${String(serial).padStart(12, '0')}`, initial_fen: START, turns: TURNS, result: null, termination: 'unknown', ...extra };
  writeFileSync(file, JSON.stringify(doc));
  const [r] = records(await collect([file]));
  return r;
}

function dialect(name: string, ...overrides: string[]) {
  const d = loadDialect(name, overrides);
  if (!d.ok) throw new Error(d.error.map((p) => p.message).join('; '));
  return prepareDialect(name, d.value.rules);
}
const rulesFound = (r: GameRecord, d: ReturnType<typeof dialect>): string[] => replayGame(r, d, 0).findings.map((f) => f.rule);

describe('draw offers and draws by agreement (draws.agreement)', () => {
  const ev = (type: string, turn: number, actor: string) => ({ sequence_number: 1, turn_number: turn, event_type: type, actor_color: actor });

  it('a declined draw offer is a finding only where the dialect has no draws by agreement', async () => {
    const r = await game({ events: [ev('DRAW_OFFER', 2, 'w'), ev('DRAW_DECLINE', 2, 'b')] });
    expect(rulesFound(r, dialect('reference'))).toEqual([]);
    expect(rulesFound(r, dialect('reference', 'draws.agreement=false'))).toEqual(['draw.offer-not-allowed']);
  });

  it('an agreed draw is refused without draws by agreement', async () => {
    const r = await game({ result: 0, termination: 'draw_agreement' });
    expect(rulesFound(r, dialect('reference'))).toEqual([]);
    expect(rulesFound(r, dialect('reference', 'draws.agreement=false'))).toEqual(['end.unknown-draw']);
  });
});

describe('the fairness reveal is judged under provably-fair dice only (docs/rules.md §2.10)', () => {
  it('a reveal whose commit does not match refutes provably-fair and says nothing under fair dice', async () => {
    const [r] = records(await collect([join(process.cwd(), 'corpora/samples/reference/games.history.ndjson.gz')], { limit: 1 }));
    expect(r.fairness).not.toBeNull();
    expect(rulesFound(r, dialect('reference'))).toEqual([]);
    const bad = { ...r, fairness: { ...r.fairness!, commit: '0'.repeat(64) } };
    expect(rulesFound(bad, dialect('reference'))).toEqual(['dice.commit-mismatch']);
    expect(rulesFound(bad, dialect('reference', 'dice.draw=fair'))).toEqual([]);
  });
});

describe('what a declined double cost (cube.declineLoses, docs/rules.md §4)', () => {
  const ev = (type: string, turn: number, actor: string) => ({ sequence_number: 1, turn_number: turn, event_type: type, actor_color: actor });
  // Stake 10; black doubles before turn 2 and white takes (cube 2); white doubles after turn 2 and black declines.
  const declined = (final: number) =>
    game({
      mode: 'x2',
      initial_stake_amount: 10,
      final_stake_amount: final,
      stake_currency: 'GOLD',
      events: [ev('DOUBLE_OFFER', 2, 'b'), ev('DOUBLE_ACCEPT', 2, 'w'), ev('DOUBLE_OFFER', 3, 'w'), ev('DOUBLE_DECLINE', 3, 'b')],
      result: 1,
      termination: 'double_declined',
    });
  const PRE = dialect('dicechess-com');
  const POST = dialect('dicechess-com', 'cube.declineLoses=post-offer-stake');

  it('a final stake equal to the pre-offer stake states nothing (the cube was not turned); twice it is the post-offer stake', async () => {
    const cube = await declined(20);
    expect(rulesFound(cube, PRE)).toEqual([]);
    expect(rulesFound(cube, POST)).toEqual([]);
    const post = await declined(40);
    expect(rulesFound(post, POST)).toEqual([]);
    const f = replayGame(post, PRE, 0).findings;
    expect(f.map((x) => [x.rule, x.turn])).toEqual([['cube.decline-cost', 3]]);
    expect(f[0].message).toBe('black declined a double and the final stake is 40, twice the pre-offer stake of 20; in this dialect a decline loses the pre-offer stake (20)');
  });

  it("the settled amount decides when it is exactly one value's cost, for the decliner or the winner; a fee's figure decides nothing", async () => {
    const r = await declined(20);
    const settled = (side: 'w' | 'b', amount: number): GameRecord => ({ ...r, stakes: { ...r.stakes!, settled: { side, amount } } });
    expect(rulesFound(settled('b', -20), PRE)).toEqual([]);
    expect(rulesFound(settled('b', -20), POST)).toEqual(['cube.decline-cost']);
    expect(rulesFound(settled('b', -40), PRE)).toEqual(['cube.decline-cost']);
    expect(rulesFound(settled('w', 40), POST)).toEqual([]);
    expect(rulesFound(settled('w', 40), PRE)).toEqual(['cube.decline-cost']);
    // The winner's 38 of 40 (a 5 % fee): neither value's cost.
    expect(rulesFound(settled('w', 38), PRE)).toEqual([]);
    expect(rulesFound(settled('w', 38), POST)).toEqual([]);
  });
});
