import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';

/**
 * merge counts every counter of the merged summary again from the shards' own results
 * (22.6): a shard.json whose counters were edited, its own hashes left valid, is
 * refused with one line, exit 2, and nothing written. Real CLI processes.
 */
const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
const sample = join(root, 'corpora/samples/planted/reference.history.ndjson.gz');

const cli = (args: string[]): Promise<{ status: number | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stderr }));
  });

describe('merge and edited shard counters', () => {
  it.each([
    ['totals and byDialect conforming + 5', (m: any) => ((m.state.totals.conforming += 5), (m.state.totals.lines += 5), (m.state.byDialect.reference.conforming += 5), (m.state.byDialect.reference.lines += 5))],
    ['a rule count', (m: any) => Object.values(m.state.byRule as Record<string, { byDialect: Record<string, { games: number }> }>).forEach((e) => (e.byDialect.reference.games += 1))],
    ['an example', (m: any) => (m.state.examples[0].id = 'another-game')],
  ])('%s: refused, one line, exit 2, nothing written', async (_, edit) => {
    const dir = tempDir('dd-merge-');
    for (const k of [1, 2]) expect((await cli(['replay', sample, '--dialect', 'reference', '--shard', `${k}/2`, '--out', join(dir, `s${k}`), '--jobs', '1', '--quiet'])).status).toBeLessThan(2);
    const good = await cli(['merge', join(dir, 's1'), join(dir, 's2'), '--out', join(dir, 'ok'), '--quiet']);
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    const file = join(dir, 's2', 'shard.json');
    const m = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(m.state.byRule).length).toBeGreaterThan(0); // the planted findings
    edit(m);
    writeFileSync(file, JSON.stringify(m));
    const r = await cli(['merge', join(dir, 's1'), join(dir, 's2'), '--out', join(dir, 'merged'), '--quiet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^dice-dialects: .*s2\/shard\.json: its counters do not match its results\.ndjson \(.*\); the shard was edited or damaged/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'merged'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['ok', 's1', 's2']);
  }, 180_000);
});
