import { describe, expect, it } from 'vitest';
import { loadDialect } from '../../dialects/index.js';
import type { FormatName } from '../../records/model/game-record.js';
import { generateBatch } from '../generator.js';
import { type InjectSpec, PLANTERS, injectProblem, parseInject } from './index.js';
import { DEFAULT_RATES } from '../self-play.js';

function plantable(dialect: string, format: FormatName): InjectSpec[] {
  const d = loadDialect(dialect);
  if (!d.ok) throw new Error('dialect');
  const specs = Object.keys(PLANTERS)
    .map((rule) => parseInject(`${rule}:0.05`))
    .filter((s): s is InjectSpec => typeof s !== 'string' && injectProblem(s, d.value.rules, format) === null);
  for (const s of specs) s.rate = Math.min(0.08, 0.9 / specs.length);
  return specs;
}

describe('--inject specs', () => {
  it('parses rule, variant and rate, and says what is wrong', () => {
    expect(parseInject('maximum.fewer-dice/move-order:0.1')).toEqual({ name: 'maximum.fewer-dice/move-order', rule: 'maximum.fewer-dice', variant: 'move-order', rate: 0.1 });
    expect(parseInject('maximum.fewer-dice')).toMatch(/RULE:RATE/);
    expect(parseInject('no.such-rule:0.1')).toMatch(/not a rule id/);
    expect(parseInject('maximum.fewer-dice:2')).toMatch(/rate/);
    expect(parseInject('maximum.fewer-dice/nope:0.1')).toMatch(/variants/);
    expect(parseInject('turn.side:0.1')).toMatch(/no planter/);
  });

  it('refuses plantings a dialect or format cannot show', () => {
    const ref = loadDialect('reference');
    const dc = loadDialect('dicechess-com');
    if (!ref.ok || !dc.ok) throw new Error('dialect');
    const spec = (t: string) => parseInject(t) as InjectSpec;
    expect(injectProblem(spec('dice.not-derived-from-seeds:0.1'), dc.value.rules, 'ndjson')).toMatch(/no fairness/);
    expect(injectProblem(spec('dice.not-derived-from-seeds:0.1'), ref.value.rules, 'csv')).toMatch(/carries no fairness/);
    expect(injectProblem(spec('dice.allowed-flag:0.1'), ref.value.rules, 'history')).toMatch(/allowed flags/);
    expect(injectProblem(spec('promotion.not-allowed:0.1'), ref.value.rules, 'ndjson')).toMatch(/every promotion piece/);
    expect(injectProblem(spec('en-passant.window/later-micro-move:0.1'), ref.value.rules, 'ndjson')).toMatch(/reply-turn/);
    expect(injectProblem(spec('end.result-mismatch:0.1'), ref.value.rules, 'dicechess-com')).toMatch(/no result/);
  });
});

describe('planted divergences are found exactly where the key says (round trip through the format, then the replayer)', () => {
  const cases: Array<[string, FormatName]> = [
    ['reference', 'ndjson'],
    ['reference', 'history'],
    ['reference', 'opening-book'],
    ['dicechess-com', 'dicechess-com'],
    ['dicechess-com', 'ingest-wire'],
    ['beturanga', 'csv'],
    ['brainking-one-die', 'ndjson'],
    ['wikipedia-two-dice', 'ingest-wire'],
    ['chess', 'history'],
  ];
  it.each(cases)('%s in %s', async (dialect, format) => {
    const d = loadDialect(dialect);
    if (!d.ok) throw new Error('dialect');
    const inject = plantable(dialect, format);
    const out = await generateBatch({
      dialect: { file: d.value.file, overrides: [] },
      seed: 'inject-test',
      format,
      bots: ['random', 'greedy'],
      rates: DEFAULT_RATES,
      inject,
      start: 0,
      count: 60,
      bookTurns: 6,
      verify: true,
    });
    expect(out.problems).toEqual([]);
    const planted = Object.values(out.stats.planted).reduce((a, b) => a + b, 0);
    expect(planted).toBeGreaterThan(10);
    expect(out.units.filter((u) => u.expected !== null)).toHaveLength(planted);
  });

  it('plants en passant on a later micro-move under the first-micro-move option', async () => {
    const d = loadDialect('reference', ['enPassant.window=first-micro-move']);
    if (!d.ok) throw new Error('dialect');
    const out = await generateBatch({
      dialect: { file: d.value.file, overrides: ['enPassant.window=first-micro-move'] },
      seed: 'ep',
      format: 'ndjson',
      bots: ['random', 'greedy'],
      rates: DEFAULT_RATES,
      inject: [parseInject('en-passant.window/later-micro-move:0.5') as InjectSpec],
      start: 0,
      count: 30,
      bookTurns: 6,
      verify: true,
    });
    expect(out.problems).toEqual([]);
    const eps = out.units.filter((u) => u.expected);
    expect(eps.length).toBeGreaterThan(5);
    expect(eps.every((u) => u.expected!.microMove === 1 && u.expected!.rule === 'en-passant.window')).toBe(true);
  });
});
