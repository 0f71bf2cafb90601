import { spawnSync } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../src/test-support/temp-dir.js';

/**
 * What the nightly must not promote (22.7): a run under a loosened rule. scripts/nightly.sh
 * run for real on a generated corpus with planted divergences and its answer key.
 */
const script = fileURLToPath(new URL('./nightly.sh', import.meta.url));

function setup() {
  const dir = tempDir('dice-nightly-');
  const state = join(dir, 'state');
  const config = join(dir, 'nightly.json');
  const env = { ...process.env, NIGHTLY_CORPORA: join(dir, 'corpora') };
  const night = (extra: string[] = []) => {
    const r = spawnSync('bash', [script, config, state, ...extra], { encoding: 'utf8', env });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const piped = (pipe: string) => {
    const r = spawnSync('bash', ['-c', `set -o pipefail; bash "${script}" "${config}" "${state}" ${pipe}`], { encoding: 'utf8', env });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const write = (c: object): void => writeFileSync(config, JSON.stringify(c));
  const lastGood = (): string => readlinkSync(join(state, 'last-good'));
  return { state, night, piped, write, lastGood };
}

const planted = { name: 'planted', generate: { dialect: 'reference', games: 30, seed: 's-planted', format: 'ndjson', inject: ['maximum.fewer-dice:0.5'] } };
const base = { dialects: ['reference'], jobs: 1, corpora: [planted] };

describe('nightly promotion', { timeout: 600_000 }, () => {
  it('a loosened rule (--set maximum=none) is not promoted: the config change is named, reclassified games count as broken, the answer key scores worse', () => {
    const n = setup();
    n.write(base);
    const first = n.night();
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const good = n.lastGood();
    expect(Object.keys(JSON.parse(readFileSync(join(n.state, `${good}.scores.json`), 'utf8')))).toEqual(['planted']);

    n.write({ ...base, set: ['maximum=none'] });
    const loosened = n.night();
    expect(loosened.code).toBe(1);
    expect(loosened.out).toMatch(/\*\*The configuration changed\*\* \(dialects and overrides .*maximum=none/);
    expect(loosened.out).toMatch(/reclassified record\(s\) count as broken/);
    expect(loosened.out).toMatch(/Answer keys score worse than the last good run[\s\S]*planted: \d+ → \d+ planted divergences found/);
    expect(n.lastGood()).toBe(good);

    // Allowing the config change does not hide the loosened rule: the games and the key still say so.
    const allowed = n.night(['--allow-config-change']);
    expect(allowed.code).toBe(1);
    expect(allowed.out).toMatch(/configuration changed \(allowed: --allow-config-change\)/);
    expect(n.lastGood()).toBe(good);

    // The same config as last good again: promoted.
    n.write(base);
    expect(n.night().code).toBe(0);
    expect(n.lastGood()).not.toBe(good);
  });

  it('nightly.sh | head: a closed stdout does not change the exit code (0 after promoting)', () => {
    const n = setup();
    n.write(base);
    expect(n.night().code).toBe(0);
    const r = n.piped('| head -c 1');
    expect(r.err).not.toMatch(/EPIPE|Error/);
    expect(r.code).toBe(0);
  });
});
