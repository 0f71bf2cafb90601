import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECTS_DIR, listDialects } from '../dialects/index.js';
import { dialectResolver } from './resolver.js';
import { buildMatrix, loadCaseFiles, renderMatrixMarkdown, runCases } from './suite.js';
import { tempDir } from '../test-support/temp-dir.js';

const loaded = loadCaseFiles(join(DIALECTS_DIR, 'cases'));
const resolve = dialectResolver();

describe('conformance cases (dialects/cases)', () => {
  it('case files are valid: schema, known rule ids, unique ids', () => {
    expect(loaded.problems).toEqual([]);
    expect(loaded.cases.length).toBeGreaterThan(60);
  });
  for (const run of runCases(loaded.cases, resolve)) {
    it(`${run.id} [${run.key}]`, () => {
      expect(run.diffs).toEqual([]);
      expect(run.status).toBe('pass');
    });
  }
});

describe('case runner', () => {
  it('reports an unknown rule id in a case as a problem', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir('cases-');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ about: 'x', cases: [{ id: 'x', rules: ['no.such-rule'], description: 'd', source: 's', dfen: '8/8/8/8/8/8/8/K6k w - - 0 1 P', expect: {} }] }));
    expect(loadCaseFiles(dir).problems.map((p) => p.message)).toEqual(['unknown rule id "no.such-rule"']);
  });
  it('flags an unexpected pass as loudly as a failure', () => {
    const c = loaded.cases.find((x) => x.id === 'maximum.opening-pnb');
    if (!c) throw new Error('case missing');
    const runs = runCases([{ ...c, expect: { reference: { ...c.expect.reference, knownFailure: 'pretend' } } }], resolve);
    expect(runs[0].status).toBe('unexpected-pass');
  });
});

describe('reports/dialect-matrix.md', () => {
  it('is up to date with the dialects and cases (regenerate: dice-dialects cases --matrix --out reports/dialect-matrix.md)', () => {
    const names = listDialects().map((d) => d.name);
    const fresh = renderMatrixMarkdown(buildMatrix(loaded.cases, names, resolve));
    const committed = readFileSync(join(DIALECTS_DIR, '..', 'reports', 'dialect-matrix.md'), 'utf8');
    expect(committed).toBe(fresh);
  });
});
