import { describe, expect, it } from 'vitest';
import type { Finding, GameResultLine } from '../replay/result.js';
import { divergenceClasses } from './classes.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-md.js';
import { renderHtml } from './render-html.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { RUN_INFO } from './test-support/fixtures.js';
import { ruleKinds } from '../run/rule-kinds.js';

const f = (rule: string, turn = 1): Finding => ({ rule, turn, microMove: null, dfen: null, dice: null, recorded: [], allowed: [], message: `${rule} here`, location: null });
const line = (id: string, status: GameResultLine['status'], ...rules: string[]): GameResultLine => ({ id, dialect: 'reference', index: 0, status, findings: rules.map((r, i) => f(r, i + 1)), source: 'c.ndjson', turns: 3 });

function summary() {
  const b = new SummaryBuilder(['reference']);
  // As the replayer counts them: a wrong recorded position makes the game diverge; a reader code makes the line unreadable.
  b.addResult(line('g1', 'diverging', 'record.fen-after-mismatch'));
  b.addResult(line('g2', 'unreadable', 'record.bad-json'));
  // --continue-after-divergence: clock.mismatch only ever follows another divergence.
  b.addResult(line('g3', 'diverging', 'maximum.fewer-dice', 'clock.mismatch', 'clock.mismatch'));
  return b.build(RUN_INFO);
}

describe('divergence classes', () => {
  it('a class has the kind its lines were counted under', () => {
    const s = summary();
    const kinds = Object.fromEntries(divergenceClasses(s, ruleKinds(s)).map((c) => [c.rule, c.kind]));
    expect(kinds).toEqual({ 'clock.mismatch': 'divergence', 'maximum.fewer-dice': 'divergence', 'record.bad-json': 'unreadable', 'record.fen-after-mismatch': 'divergence' });
    expect(s.totals.diverging).toBe(2);
    expect(renderMarkdown(s, { kinds: ruleKinds(s) })).toMatch(/\| `record\.fen-after-mismatch` \| divergence \|/);
    expect(renderJunit(s, ruleKinds(s))).toMatch(/name="record\.fen-after-mismatch"[^>]*>\s*<failure/);
  });

  it('takes each rule id\'s kind from the data the run hands it (an id it does not name is a reader\'s code)', () => {
    const s = summary();
    const kinds = Object.fromEntries(divergenceClasses(s, { 'maximum.fewer-dice': 'divergence', 'clock.mismatch': 'recording-fault' }).map((c) => [c.rule, c.kind]));
    expect(kinds).toEqual({ 'clock.mismatch': 'recording-fault', 'maximum.fewer-dice': 'divergence', 'record.bad-json': 'unreadable', 'record.fen-after-mismatch': 'unreadable' });
    expect(ruleKinds(s)).toEqual({ 'clock.mismatch': 'divergence', 'maximum.fewer-dice': 'divergence', 'record.bad-json': 'unreadable', 'record.fen-after-mismatch': 'divergence' });
  });

  it('a class found only after an earlier divergence is not called "0 record(s)"', () => {
    const s = summary();
    const junit = renderJunit(s, ruleKinds(s));
    expect(junit).not.toMatch(/0 record\(s\) of class/);
    expect(junit).toMatch(/message="2 finding\(s\) of class clock\.mismatch, each after an earlier divergence of its game/);
    expect(junit).toMatch(/message="1 record\(s\) of class maximum\.fewer-dice \(1 finding\(s\)\)/);
    const md = renderMarkdown(s, { kinds: ruleKinds(s) });
    expect(md).not.toMatch(/`clock\.mismatch`: 0 record/);
    // Nor its dialects "0": their findings, said to follow an earlier divergence.
    expect(md).toContain('Rule divergence by dialect: `reference` 2 finding(s) after an earlier divergence.');
    expect(md).toContain('Rule divergence by dialect: `reference` 1.');
    expect(renderHtml(s, { kinds: ruleKinds(s) })).toContain('by dialect: <code>reference</code> 2 finding(s) after an earlier divergence.');
  });
});
