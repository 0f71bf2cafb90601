import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/run-cli.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('moves, turns, check, cases: the command shapes of the rules core', () => {
  it('moves: one legal first micro-move per line, or a JSON array', async () => {
    const text = await runCli('moves', '--dialect', 'reference', '--dfen', `${START} PNB`);
    expect(text.code).toBe(0);
    expect(text.out.trim().split('\n')).toEqual(['b1a3', 'b1c3', 'b2b3', 'b2b4', 'd2d3', 'd2d4', 'e2e3', 'e2e4', 'g1f3', 'g1h3', 'g2g3', 'g2g4']);
    const json = await runCli('moves', '--dialect', 'fortemate', '--dfen', '4k3/8/8/8/8/8/8/4K3 w - - 0 1 R', '--json');
    expect(JSON.parse(json.out)).toEqual([]);
  });
  it('turns: comma-separated turns, "pass" for the forced pass; --json gives [[]]', async () => {
    const text = await runCli('turns', '--dialect', 'reference', '--dfen', '8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', '--set', 'maximum=path-all');
    expect(text.out.trim()).toBe('e7e8n,e8g7');
    expect((await runCli('turns', '--dialect', 'reference', '--dfen', `${START} BRQ`)).out.trim()).toBe('pass');
    expect(JSON.parse((await runCli('turns', '--dialect', 'reference', '--dfen', `${START} BRQ`, '--json')).out)).toEqual([[]]);
  });
  it('turns: a list --limit cuts short says so on stderr; one that ends at the limit does not', async () => {
    const all = (await runCli('turns', '--dialect', 'reference', '--dfen', `${START} PNB`)).out.trim().split('\n');
    expect(all.length).toBeGreaterThan(3);
    const cut = await runCli('turns', '--dialect', 'reference', '--dfen', `${START} PNB`, '--limit', '3');
    expect([cut.code, cut.out.trim().split('\n')]).toEqual([0, all.slice(0, 3)]);
    expect(cut.err).toBe('dice-dialects: note: the first 3 turns only: the position has more (raise --limit to list them)\n');
    const whole = await runCli('turns', '--dialect', 'reference', '--dfen', `${START} PNB`, '--limit', String(all.length), '--json');
    expect([JSON.parse(whole.out).length, whole.err]).toEqual([all.length, '']);
  });
  it('check: exit 0 and "legal", or exit 1 with the rule, micro-move and reason', async () => {
    const ok = await runCli('check', '--dialect', 'reference', '--dfen', `${START} PNB`, '--turn', 'e2e4,f1c4,b1c3');
    expect([ok.code, ok.out.trim()]).toEqual([0, 'legal']);
    const bad = await runCli('check', '--dialect', 'reference', '--dfen', `${START} PB`, '--turn', 'a2a3');
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^maximum\.fewer-dice at micro-move 0: /);
    const json = await runCli('check', '--dialect', 'reference', '--dfen', `${START} PB`, '--turn', 'a2a3', '--json');
    expect(JSON.parse(json.out)).toMatchObject({ legal: false, rule: 'maximum.fewer-dice', microMove: 0 });
  });
  it('usage errors are one line and exit 2: bad DFEN, unknown dialect, bad move text, missing dice', async () => {
    for (const args of [
      ['check', '--dialect', 'reference', '--dfen', 'not a fen', '--turn', 'e2e4'],
      ['check', '--dialect', 'no-such', '--dfen', `${START} P`, '--turn', 'e2e4'],
      ['check', '--dialect', 'reference', '--dfen', `${START} P`, '--turn', 'e2e9'],
      ['moves', '--dialect', 'reference', '--dfen', START],
    ]) {
      const r = await runCli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
  it('cases: a closing count and exit 0 when every expectation holds', async () => {
    const r = await runCli('cases', '--dialect', 'wikipedia');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').pop()).toMatch(/^\d+ passed, 0 failed/);
  });
});
