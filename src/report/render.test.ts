import { describe, expect, it } from 'vitest';
import { boardSvg, moveSquares, readBoardField } from '../explore/page/board-svg.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-md.js';
import { checkCommand, checkInputs, NO_CHECK } from './repro.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { checkXml } from './test-support/xml-check.js';
import { DIALECTS, HOSTILE, RUN_INFO, sampleDiceTurns, sampleLines } from './test-support/fixtures.js';
import { ruleKinds } from '../run/rule-kinds.js';

/** The fixtures' summary, each example with a position given its check command (what a run judged to show it: run/reproduction.test.ts), but one: none shows it. */
function summary() {
  const b = new SummaryBuilder(DIALECTS);
  for (const l of sampleLines()) b.addResult(l);
  for (const t of sampleDiceTurns()) b.addDiceTurn(t);
  b.setReproductions((e) => {
    const [input] = checkInputs(e.finding);
    return e.dialect === 'dicechess-com' && e.rule === 'maximum.fewer-dice' ? null : input === undefined ? null : checkCommand(e.dialect, [], input);
  });
  return b.build(RUN_INFO);
}

describe('renderMarkdown', () => {
  const md = renderMarkdown(summary(), { kinds: ruleKinds(summary()) });

  it('has the summary tables, the matrix and the dice statistics', () => {
    expect(md).toContain('| dialect | records | conforming | diverging | unreadable | findings |');
    expect(md).toContain('| `reference` | 6 | 1/6 (16.7 %) | 4/6 (66.7 %) | 1/6 (16.7 %) | 6 |');
    expect(md).toContain('## Conformance matrix (corpus × dialect)');
    expect(md).toMatch(/\| `corpora\/a\.ndjson` \| 1\/3 \(33\.3 %\) ✗2 \| 1\/3 \(33\.3 %\) ✗2 \| 2\/3 \(66\.7 %\) ✗1 \|/);
    expect(md).toContain('| `maximum.fewer-dice` | divergence | 1 | 1 | 0 | 2 | 2 |');
    expect(md).toContain('| `record.bad-fen` | unreadable | 1 | 1 | 1 | 3 | 3 |');
    expect(md).toMatch(/\| forced passes on opening rolls \| [\d.]+ % \(\d+\/30 opening turns\) \| 29\.6 % \|/);
    expect(md).toMatch(/Chi-square against uniform faces: [\d.]+ with 5 degrees of freedom, p = [\d.]+/);
  });

  it('gives each class a pasteable reproduction with the check command', () => {
    expect(md).toContain('### `maximum.fewer-dice`: 2 record(s), 2 finding(s)');
    expect(md).toContain('- DFEN: `8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN`');
    expect(md).toContain('- Allowed: `e7e8n e8g7`');
    expect(md).toContain('```sh\ndice-dialects check --dialect reference --dfen "8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN" --turn e7e8q\n```');
    // From the DFEN before micro-move 1, only the rest of the recorded turn is replayed.
    expect(md).toContain('--dfen "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 NB" --turn d1h5,f1c4');
    // No DFEN, no command.
    expect(md).not.toMatch(/check --dialect \S+ --dfen "?rnbqkbnr\/ppp w/);
    // A position no command shows says so, in both reports.
    expect(md.split(`- ${NO_CHECK}`)).toHaveLength(2);
    expect(renderHtml(summary(), { kinds: ruleKinds(summary()) }).split(`<li>${NO_CHECK}</li>`)).toHaveLength(2);
  });

  it('escapes record text (no raw HTML, table cells intact, hostile DFEN single-quoted)', () => {
    // Code spans and fenced blocks render literally; everywhere else markup must be escaped.
    const prose = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
    expect(prose).not.toMatch(/(?<!\\)<(script|img)/);
    expect(prose).toContain('\\<script\\>');
    expect(md).toContain("--dfen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KR`$(touch x)'");
    for (const row of md.split('\n').filter((l) => l.startsWith('| `evil'))) {
      expect(row.split(/(?<!\\)\|/).length - 2).toBe(DIALECTS.length + 1);
    }
  });

  it('puts machine facts only in the run info block and is byte-stable', () => {
    const runInfoAt = md.indexOf('## Run info');
    expect(runInfoAt).toBeGreaterThan(0);
    expect(md.indexOf('2025-01-01T00:00:00.000Z')).toBeGreaterThan(runInfoAt);
    expect(renderMarkdown(summary(), { kinds: ruleKinds(summary()) })).toBe(md);
    const other = summary();
    other.run_info = { ...other.run_info, startedAt: '2030-05-05T00:00:00.000Z', durationMs: 99 };
    expect(renderMarkdown(other, { kinds: ruleKinds(other) }).slice(0, runInfoAt)).toBe(md.slice(0, runInfoAt));
  });
});

describe('the verdict every report heads with', () => {
  const build = (lines: ReturnType<typeof sampleLines>) => {
    const b = new SummaryBuilder(DIALECTS);
    for (const l of lines) b.addResult(l);
    return b.build(RUN_INFO);
  };

  it('a run that read no record checked nothing: no report calls it a pass', () => {
    const empty = build([]);
    const kinds = ruleKinds(empty);
    const md = renderMarkdown(empty, { kinds });
    expect(md).toContain('**Nothing was checked**: the sources held no record. 0 results');
    expect(md).not.toMatch(/conforms/);
    const html = renderHtml(empty, { kinds });
    expect(html).toContain('<div class="banner bad">Nothing was checked: the sources held no record. 0 results');
    expect(html).not.toMatch(/conforms/);
    const { elements, attributes } = checkXml(renderJunit(empty, kinds));
    expect(attributes[0]).toMatchObject({ tests: '3', failures: '0', errors: '3' });
    const cases = attributes.filter((_, i) => elements[i] === 'error');
    expect(cases.map((c) => c.type)).toEqual(['run.nothing-checked', 'run.nothing-checked', 'run.nothing-checked']);
  });

  it('names unreadable records as such, not as divergences', () => {
    const unreadableOnly = build(sampleLines().filter((l) => l.status !== 'diverging'));
    const kinds = ruleKinds(unreadableOnly);
    expect(unreadableOnly.totals).toMatchObject({ diverging: 0, unreadable: 3 });
    expect(renderMarkdown(unreadableOnly, { kinds })).toContain('**Unreadable records found** (no rule divergence).');
    expect(renderHtml(unreadableOnly, { kinds })).toContain('<div class="banner bad">Unreadable records found (no rule divergence).');
    const clean = build(sampleLines().filter((l) => l.status === 'conforming'));
    expect(renderMarkdown(clean, { kinds: ruleKinds(clean) })).toContain('**Every record conforms.**');
    expect(renderHtml(clean, { kinds: ruleKinds(clean) })).toContain('<div class="banner good">Every record conforms.');
  });
});

describe('renderJunit', () => {
  it('is well-formed XML with one suite per dialect and one case per class', () => {
    const xml = renderJunit(summary(), ruleKinds(summary()));
    const { elements, attributes } = checkXml(xml);
    const suites = attributes.filter((_, i) => elements[i] === 'testsuite');
    expect(suites.map((s) => s.name)).toEqual(DIALECTS);
    expect(suites[0]).toMatchObject({ tests: '5', failures: '3', errors: '1' });
    const props = attributes.filter((_, i) => elements[i] === 'property').slice(0, 5);
    expect(props.map((p) => p.name)).toEqual(['records', 'conforming', 'diverging', 'unreadable', 'faulty']);
    expect(suites[2]).toMatchObject({ tests: '3', failures: '1', errors: '1' });
    const cases = attributes.filter((_, i) => elements[i] === 'testcase' && _.classname === 'dice-dialects.reference').map((c) => c.name);
    expect(cases).toEqual(['replay completed', 'dice.piece-not-rolled', 'end.result-mismatch', 'maximum.fewer-dice', 'record.bad-fen']);
    expect(elements.filter((e) => e === 'error')).toHaveLength(3);
    const root = attributes[0];
    expect(root).toMatchObject({ name: 'dice-dialects', tests: '12', failures: '6', errors: '3' });
    // The hostile message survives as text, not markup.
    expect(xml).not.toContain('<script>');
    const hostile = attributes.find((a) => a.type === 'dice.piece-not-rolled' && a.message.includes('script'));
    expect(hostile?.message).toContain(HOSTILE);
    expect(renderJunit(summary(), ruleKinds(summary()))).toBe(xml);
  });

  it('adds one case per game when asked', () => {
    const xml = renderJunit(summary(), ruleKinds(summary()), sampleLines());
    const { elements, attributes } = checkXml(xml);
    const games = attributes.filter((a, i) => elements[i] === 'testcase' && a.classname.split('.').length > 2);
    expect(games).toHaveLength(18);
    expect(games.find((g) => g.name === HOSTILE)).toBeDefined();
    expect(attributes[0]).toMatchObject({ tests: String(12 + 18), failures: String(6 + 7), errors: String(3 + 3) });
  });

  it('drops characters XML cannot carry', () => {
    const lines = sampleLines();
    lines[3] = { ...lines[3], id: 'bad\u0001id\uD800' };
    const xml = renderJunit(summary(), ruleKinds(summary()), lines);
    expect(() => checkXml(xml)).not.toThrow();
    expect(xml).not.toMatch(/[\u0001\uD800]/);
  });
});

describe('renderHtml', () => {
  const html = renderHtml(summary(), { kinds: ruleKinds(summary()) });

  it('escapes every record string', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
    expect(html).not.toMatch(/<[^>]*onerror/i);
  });

  it('is self-contained: no script, no external URL', () => {
    expect(html).not.toMatch(/<script/i);
    const urls = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls.every((u) => u.startsWith('data:'))).toBe(true);
    expect(html.match(/https?:\/\/[^\s"']+/g)?.every((u) => u === 'http://www.w3.org/2000/svg')).toBe(true);
  });

  it('draws one board per example with a position', () => {
    expect(html.match(/<svg[^>]*class="board"/g)).toHaveLength(5);
    expect(html).toContain('class="chart"');
    expect(renderHtml(summary(), { kinds: ruleKinds(summary()) })).toBe(html);
  });
});

describe('boardSvg', () => {
  it('draws pieces, dice and both kinds of arrows', () => {
    const svg = boardSvg('8/2B1P1k1/3B1B2/8/8/8/P7/K7 w - - 0 1 PNN', { recorded: ['e7e8q'], allowed: [['e7e8n', 'e8g7'], ['a2a3']] });
    expect(svg.match(/class="piece"/g)!.length).toBe(7 + 3);
    expect(svg.match(/class="die"/g)).toHaveLength(3);
    expect(svg.match(/#d62728/g)!.length).toBeGreaterThanOrEqual(2);
    expect(svg.match(/stroke="#2ca02c"/g)).toHaveLength(3);
    expect(svg).toContain('stroke-dasharray');
    expect(() => checkXml(svg)).not.toThrow();
  });

  it('survives junk', () => {
    const svg = boardSvg('<b>not a fen</b> & "', { recorded: ['1-0', 'zz'], allowed: [[]] });
    expect(svg).toContain('position not readable');
    expect(svg).not.toContain('<b>');
    expect(() => checkXml(svg)).not.toThrow();
  });

  it('reads boards and moves leniently', () => {
    expect(readBoardField('8/8/8/8/8/8/8/K7')![0]).toBe('K');
    expect(readBoardField('8/8/8/8/8/8/8/K8')).toBeNull();
    expect(readBoardField('8/8/8')).toBeNull();
    expect(moveSquares('e2e4')).toEqual([12, 28]);
    expect(moveSquares('e7e8q')).toEqual([52, 60]);
    expect(moveSquares('e1e1')).toBeNull();
    expect(moveSquares('Nf3')).toBeNull();
  });
});

describe('checkCommand', () => {
  it('writes a recorded pass as "pass", and each --set', () => {
    const finding = { rule: 'pass.not-forced', turn: 4, microMove: null, dfen: '7k/8/8/8/8/8/8/K7 w - - 0 1 P', dice: 'P', recorded: [], allowed: [['a1a2']], message: 'm', location: null };
    expect(checkInputs(finding)).toEqual([{ dfen: finding.dfen, turn: 'pass' }]);
    const [input] = checkInputs(finding);
    expect(checkCommand('reference', [], input)).toBe('dice-dialects check --dialect reference --dfen "7k/8/8/8/8/8/8/K7 w - - 0 1 P" --turn pass');
    expect(checkCommand('reference', ['dice.count=2', 'enPassant.window=first-micro-move'], input)).toBe(
      'dice-dialects check --dialect reference --set dice.count=2 --set enPassant.window=first-micro-move --dfen "7k/8/8/8/8/8/8/K7 w - - 0 1 P" --turn pass',
    );
  });
});
