import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BRAINKING, CHESS, REFERENCE, WIKIPEDIA, withRules } from '../rules/test-support/rules-fixtures.js';
import type { Rules } from '../rules/index.js';
import { loadCaseFiles, runCases } from './suite.js';

it('tmp', () => {
  const base: Record<string, Rules> = { reference: REFERENCE, 'dicechess-com': REFERENCE, beturanga: withRules((r) => { r.castling.chess960 = true; r.castling.notation = 'king-takes-rook'; }), 'wikipedia-two-dice': WIKIPEDIA, 'brainking-one-die': BRAINKING, chess: CHESS };
  const loaded = loadCaseFiles(join(process.cwd(), 'dialects/cases'));
  expect(loaded.problems).toEqual([]);
  const runs = runCases(loaded.cases, (key) => {
    const [name, ...ov] = key.split('+');
    const r = structuredClone(base[name]);
    for (const o of ov) {
      const [p, v] = o.split('=');
      const parts = p.split('.');
      let t: any = r;
      for (const k of parts.slice(0, -1)) t = t[k];
      let val: unknown; try { val = JSON.parse(v); } catch { val = v; }
      t[parts[parts.length - 1]] = val;
    }
    return { ok: true, name, rules: r };
  });
  const bad = runs.filter((r) => r.status !== 'pass');
  console.log(JSON.stringify(bad, null, 1));
  expect(bad.length).toBe(0);
});
