import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, layoutOf, rowOf } from './csv.js';

/** A row as the reader built it before: `{ line }`, then every header column's cell assigned to it in order. */
function filledRow(columns: string[], cells: string[], line: number): Record<string, unknown> {
  const row: Record<string, unknown> = { line };
  for (let i = 0; i < columns.length; i++) row[columns[i]] = cells[i];
  return row;
}

describe('a CSV row by layout', () => {
  it('reads what the cell-by-cell row held, for any header (repeated, missing, extra, "line", "__proto__" columns) and any number of cells', () => {
    const name = fc.constantFrom(...CSV_COLUMNS, 'line', '__proto__', 'constructor', 'toString', 'extra', '');
    fc.assert(
      fc.property(fc.array(name, { maxLength: 20 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 22 }), fc.nat(1000), (columns, cells, line) => {
        const old = filledRow(columns, cells, line);
        const row = rowOf(layoutOf(columns), cells, line) as Record<string, unknown>;
        for (const c of [...CSV_COLUMNS, 'line'] as const) expect(row[c]).toBe(old[c]);
      }),
      { numRuns: 20000 },
    );
  });
});
