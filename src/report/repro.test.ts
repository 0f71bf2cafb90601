import { describe, expect, it } from 'vitest';
import { parseHash } from '../explore/page/hash.js';
import type { Finding } from '../replay/result.js';
import { explorerLink, findingLink } from './repro.js';
import type { Summary } from './summary-schema.js';

const DFEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN';
const finding = (dfen: string | null, recorded: string[], microMove: number | null): Finding => ({
  rule: 'maximum.fewer-dice', turn: 1, microMove, dfen, dice: 'PN', recorded, allowed: [], message: 'm', location: null,
});

describe('the explorer link of a finding', () => {
  it('opens the position with the rest of the recorded turn, and the dialect with its --set overrides brought forward', () => {
    const link = findingLink('explorer.html', 'reference', ['maximum.rule=none', 'dice.count=3'], finding(DFEN, ['e2e4', 'b1c3'], 1))!;
    expect(link.startsWith('explorer.html#')).toBe(true);
    expect(parseHash(link.slice('explorer.html'.length))).toEqual({ dfen: DFEN, turn: ['b1c3'], step: 0, set: 'reference+maximum.rule=none+dice.count=3', focus: 'reference+maximum.rule=none+dice.count=3' });
    expect(parseHash(findingLink('x.html', 'reference', [], finding(DFEN, [], null))!.slice(6))).toEqual({ dfen: DFEN, turn: [], step: 0, set: '', focus: 'reference' });
    expect(findingLink('x.html', 'reference', [], finding(null, ['e2e4'], 0))).toBeNull();
  });

  it("with the turn's start, opens the whole recorded turn stepped to the finding's micro-move", () => {
    const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB';
    const f = { ...finding(DFEN, ['e2e4', 'b1c3'], 1), turnDfen: start };
    expect(parseHash(findingLink('x.html', 'reference', [], f)!.slice(6))).toEqual({ dfen: start, turn: ['e2e4', 'b1c3'], step: 1, set: '', focus: 'reference' });
  });

  it('in a report, takes the overrides from the run\'s dialect lines', () => {
    const summary = { run_info: { options: { dialects: ['other', 'reference --set maximum.rule=none'] } } } as unknown as Summary;
    const f = finding(DFEN, ['e2e4'], 0);
    expect(explorerLink('e.html', summary, 'reference', f)).toBe(findingLink('e.html', 'reference', ['maximum.rule=none'], f));
    expect(explorerLink('e.html', summary, 'other', f)).toBe(findingLink('e.html', 'other', [], f));
  });
});
