import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findProgram, missingLine } from './binaries.js';
import { PG_URL_VAR } from './postgres.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('programs the tests need', () => {
  it('are found on PATH, and a missing one is null', () => {
    const node = findProgram(['node']);
    expect(node).toMatch(/\/node$/);
    expect(findProgram(['no-such-program-dice-dialects'])).toBeNull();
  });

  it('missing under CI=true fail the tests that need them with one line saying what to install; outside CI they are skipped', () => {
    // A browser test with no chromium to be found: an empty PATH (/usr/games holds none), no CHROMIUM given.
    const run = (ci: boolean) =>
      spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', 'src/report/render-html.chromium.test.ts', '--reporter=default'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PATH: '/nonexistent-dice-dialects-path', CHROMIUM: '', CI: ci ? 'true' : '', DICE_DIALECTS_DIST_CHECKED: '1', [PG_URL_VAR]: 'postgres://unused', NO_COLOR: '1' },
        timeout: 300_000,
      });
    const line = missingLine('chromium', 'apt-get install chromium');
    const inCi = run(true);
    expect(inCi.status, inCi.stdout + inCi.stderr).toBe(1);
    expect(inCi.stdout + inCi.stderr).toContain(line);
    const outside = run(false);
    expect(outside.status, outside.stdout + outside.stderr).toBe(0);
    expect(outside.stdout + outside.stderr).toMatch(/1 skipped/);
  });
});
