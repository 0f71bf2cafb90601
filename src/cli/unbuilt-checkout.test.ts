import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'unbuilt-checkout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command in a checkout that was never built', () => {
  it('says how to build it in one line, exit 2, no stack trace', () => {
    // The real bin script, in a folder laid out as a fresh clone before `npm run build`.
    mkdirSync(join(dir, 'bin'));
    for (const f of ['bin/dice-dialects.js', 'bin/package.json']) copyFileSync(fileURLToPath(new URL(`../../${f}`, import.meta.url)), join(dir, f));
    copyFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(dir, 'package.json'));
    const r = spawnSync(process.execPath, [join(dir, 'bin/dice-dialects.js'), 'replay', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('dice-dialects: dist/ is missing: this checkout is not built yet; run `npm ci && npm run build` (npm start and npm test build first)\n');
  });
});
