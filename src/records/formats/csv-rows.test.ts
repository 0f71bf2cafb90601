import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { papaParse, parseRows } from './csv-rows.js';

const text = (path: string): string => {
  const bytes = readFileSync(new URL(`../../../${path}`, import.meta.url));
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};
const CSVS = ['src/records/fixtures/csv/turns.csv', 'corpora/samples/dicechess-com/games.csv.gz', 'corpora/samples/beturanga/games.csv.gz', 'corpora/samples/brainking-one-die/games.csv.gz'];

/** Every stretch of consecutive lines up to `most` long (what decode is given: a game's rows; readBatches: one line). */
function stretches(all: string, most: number): string[] {
  const lines = all.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) for (let n = 1; n <= most && i + n <= lines.length; n++) out.push(lines.slice(i, i + n).join('\n'));
  return out;
}

describe('parseRows: the cells Papa Parse gives', () => {
  it('for every committed CSV, whole and in stretches of lines (of the first 300)', () => {
    for (const path of CSVS) {
      const all = text(path);
      expect(parseRows(all)).toEqual(papaParse(all));
      for (const s of stretches(all.split('\n').slice(0, 300).join('\n'), 3)) expect(parseRows(s)).toEqual(papaParse(s));
    }
  });

  it('for any text near CSV (quotes, line breaks, the delimiters Papa guesses between, a BOM)', () => {
    const char = fc.constantFrom('a', 'b', '1', ' ', ',', ',', '\n', '\r', '"', '\t', '|', ';', '\x1e', '\x1f', '\ufeff', 'é');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 60 }).map((cs) => cs.join('')), (s) => {
        expect(parseRows(s)).toEqual(papaParse(s));
      }),
      { numRuns: 10000 },
    );
  });

  it('for games as the per-turn CSV writes them, with blank cells and rows', () => {
    const cell = fc.constantFrom('', 'g1', ' g2 ', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'PNB', 'e2e4 g1f3', '1-0', 'resign', 'x2', '1500');
    const row = fc.array(cell, { minLength: 0, maxLength: 16 }).map((cs) => cs.join(','));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }).map((rs) => rs.join('\n')), (s) => {
        expect(parseRows(s)).toEqual(papaParse(s));
      }),
      { numRuns: 5000 },
    );
  });
});
