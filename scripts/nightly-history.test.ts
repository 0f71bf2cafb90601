import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { cli } from '../src/history/test-support/runs.js';
import { tempDir } from '../src/test-support/temp-dir.js';

const script = fileURLToPath(new URL('./nightly.sh', import.meta.url));

it('the nightly job records every night into STATE/history.db: promoted, not promoted, failed', { timeout: 600_000 }, () => {
  const dir = tempDir('dice-nightly-history-');
  const state = join(dir, 'state');
  const config = join(dir, 'nightly.json');
  const entry = (over: Record<string, unknown> = {}) => ({ name: 'a', generate: { dialect: 'reference', games: 4, seed: 's-a', format: 'ndjson', ...over } });
  const night = (c: object) => {
    writeFileSync(config, JSON.stringify(c));
    const r = spawnSync('bash', [script, config, state], { encoding: 'utf8', env: { ...process.env, NIGHTLY_CORPORA: join(dir, 'corpora') } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  expect(night({ dialects: ['reference'], jobs: 1, corpora: [entry()] }).code).toBe(0);
  expect(night({ dialects: ['reference'], jobs: 1, corpora: [entry({ inject: ['maximum.fewer-dice:0.5'] })] }).code).toBe(1);
  // A dialect file that does not load: the replay fails, the night is recorded as failed.
  writeFileSync(join(dir, 'broken.json'), '{');
  const failed = night({ dialects: [join(dir, 'broken.json')], jobs: 1, corpora: [entry()] });
  expect(failed.code).toBe(2);
  const r = cli(['history', 'runs', '--db', join(state, 'history.db'), '--json']);
  expect(r.code).toBe(0);
  const runs = JSON.parse(r.out).runs.reverse();
  expect(runs.map((x: { kind: string; outcome: string; promoted: boolean | null }) => [x.kind, x.outcome, x.promoted])).toEqual([
    ['nightly', 'recorded', true],
    ['nightly', 'recorded', false],
    ['nightly', 'failed', false],
  ]);
  expect(runs[2].failure).toMatch(/replay failed \(exit 2\)/);
  expect(runs.every((x: { label: string }) => /^\d{8}T\d{6}/.test(x.label))).toBe(true);
});
