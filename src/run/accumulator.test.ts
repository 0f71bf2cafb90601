import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../report/sorted.js';
import { RunAccumulator as SummaryBuilder } from './accumulator.js';
import { Summary } from '../report/summary-schema.js';
import { DIALECTS, HOSTILE, MAX_PNN, NOT_ROLLED, RUN_INFO, sampleDiceTurns, sampleLines } from '../report/test-support/fixtures.js';

function build(lines = sampleLines(), dialects = DIALECTS) {
  const b = new SummaryBuilder(dialects);
  for (const l of lines) b.addResult(l);
  for (const t of sampleDiceTurns()) b.addDiceTurn(t);
  return b.build(RUN_INFO);
}

describe('SummaryBuilder', () => {
  it('counts every line by status, dialect and rule', () => {
    const s = Summary.parse(build());
    expect(s.totals).toEqual({ lines: 18, conforming: 8, diverging: 7, unreadable: 3, faulty: 0, findings: 11 });
    // read = conforming + diverging + unreadable, per dialect too.
    for (const d of DIALECTS) {
      const c = s.byDialect[d];
      expect(c.lines).toBe(6);
      expect(c.conforming + c.diverging + c.unreadable).toBe(c.lines);
    }
    expect(s.byDialect.reference).toEqual({ lines: 6, conforming: 1, diverging: 4, unreadable: 1, faulty: 0, findings: 6 });
    // First finding = the class; a later finding counts only as a finding.
    expect(s.byRule['end.result-mismatch']).toEqual({ games: 1, findings: 2, byDialect: { reference: { games: 1, findings: 2 } } });
    expect(s.byRule['dice.piece-not-rolled'].games).toBe(3);
    expect(s.byRule['record.bad-fen'].games).toBe(3);
    expect(Object.keys(s.byRule)).toEqual([...Object.keys(s.byRule)].sort());
  });

  it('builds the corpus × dialect matrix in input order', () => {
    const s = build();
    expect(s.matrix!.dialects).toEqual(DIALECTS);
    expect(s.matrix!.sources).toEqual(['corpora/a.ndjson', `evil|${HOSTILE}.csv`, 'corpora/b.csv']);
    expect(s.matrix!.cells[0][0]).toEqual({ conforming: 1, diverging: 2, unreadable: 0, faulty: 0 });
    expect(s.matrix!.cells[2][2]).toEqual({ conforming: 1, diverging: 0, unreadable: 1, faulty: 0 });
    expect(build(sampleLines().filter((l) => l.dialect === 'reference'), ['reference']).matrix).toBeNull();
  });

  it('keeps one example per (dialect, rule), the earliest first finding with a position', () => {
    const s = build();
    const keys = s.examples.map((e) => `${e.dialect} ${e.rule}`);
    expect(keys).toEqual([
      'reference dice.piece-not-rolled',
      'reference end.result-mismatch',
      'reference maximum.fewer-dice',
      'reference record.bad-fen',
      'dicechess-com dice.piece-not-rolled',
      'dicechess-com maximum.fewer-dice',
      'dicechess-com record.bad-fen',
      'wikipedia-two-dice check.leaves-king-attacked',
      'wikipedia-two-dice record.bad-fen',
    ]);
    const ref = (rule: string) => s.examples.find((e) => e.dialect === 'reference' && e.rule === rule)!;
    // The hostile game comes at index 0 of its corpus but g3 (index 2) is a first finding too: lower index wins.
    expect(ref('dice.piece-not-rolled').id).toBe(HOSTILE);
    expect(ref('maximum.fewer-dice').finding).toEqual(MAX_PNN);
    // end.result-mismatch as a first finding (b2) beats the same rule as g3's second finding.
    expect(ref('end.result-mismatch').id).toBe('b2');
    expect(ref('end.result-mismatch').first).toBe(true);
    expect(s.examples.find((e) => e.dialect === 'dicechess-com' && e.rule === 'dice.piece-not-rolled')!.finding).toEqual(NOT_ROLLED);
  });

  it('is deterministic and independent of arrival order', () => {
    const once = canonicalJson(build());
    expect(canonicalJson(build())).toBe(once);
    const reversed = build([...sampleLines()].reverse());
    const forward = build();
    expect(reversed.examples).toEqual(forward.examples);
    expect(canonicalJson(reversed.byRule)).toBe(canonicalJson(forward.byRule));
    expect(canonicalJson(reversed.totals)).toBe(canonicalJson(forward.totals));
  });

  it('counts a dialect it was not told about', () => {
    const b = new SummaryBuilder(['reference']);
    b.addResult({ ...sampleLines()[0], dialect: 'surprise' });
    const s = b.build(RUN_INFO);
    expect(s.dialects).toEqual(['reference', 'surprise']);
    expect(s.byDialect.surprise.conforming).toBe(1);
  });

  it('computes dice statistics against the expected values', () => {
    const b = new SummaryBuilder(['reference']);
    b.addDiceTurn({ dice: [1, 2, 3], passed: false, opening: true });
    b.addDiceTurn({ dice: [4, 4, 6], passed: true, opening: true });
    b.addDiceTurn({ dice: [5, 6], passed: false, opening: false });
    b.addDiceTurn({ dice: [2, 2], passed: false, opening: false });
    b.addDiceTurn({ dice: [3], passed: true, opening: false });
    b.addDiceTurn({ dice: [7], passed: false, opening: false });
    const d = b.build(RUN_INFO).dice;
    expect(d.turns).toBe(6);
    // Pass rates count three-dice turns only (the seeds' expectations are for three dice): 1 pass in 2.
    expect(d.pass).toMatchObject({ count: 1, of: 2, rate: 0.5, expected: 1 / 12 });
    expect(d.openingPass).toMatchObject({ count: 1, of: 2, rate: 0.5, expected: 64 / 216 });
    expect(d.faces.counts).toEqual([1, 3, 2, 2, 1, 2]);
    expect(d.faces.invalid).toBe(1);
    expect(d.doubles.byDiceCount['3']).toMatchObject({ count: 1, of: 2, expected: 4 / 9 });
    expect(d.doubles.byDiceCount['2']).toMatchObject({ count: 1, of: 2 });
    expect(d.doubles.byDiceCount['2'].expected).toBeCloseTo(1 / 6, 12);
    expect(d.doubles.expected).toBeCloseTo((4 / 9 + 1 / 6) / 2, 12);
    expect(d.faces.pValue).toBeGreaterThan(0.5);
  });

  it('flags lopsided dice with a small p-value', () => {
    const b = new SummaryBuilder(['reference']);
    for (let i = 0; i < 300; i++) b.addDiceTurn({ dice: [1, 1 + (i % 6), 1], passed: false, opening: false });
    const d = b.build(RUN_INFO).dice;
    expect(d.faces.pValue!).toBeLessThan(1e-10);
    expect(d.doubles.rate).toBe(1);
  });
});
