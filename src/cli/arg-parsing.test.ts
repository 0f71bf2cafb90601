import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';

/** Arguments as a user types them, through the real command line. */

const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
const cli = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', input: '' });

describe('options parsed by hand', () => {
  it.each([
    [['replay', 'x.ndjson', '--dialect', 'reference', '--out', 'a', '--out', 'b'], /--out is given 2 times/],
    [['diff', 'a', 'b', '--out', 'x', '--out', 'y'], /--out is given 2 times/],
    [['generate', '--games', '1', '--games', '2', '--out', 'g.ndjson'], /--games is given 2 times/],
    [['generate', '--games', '1', '--draw-offer-rate', 'abc', '--out', 'g.ndjson'], /--draw-offer-rate must be a number from 0/],
    [['generate', '--games', '1', '--draw-offer-rate', '-1', '--out', 'g.ndjson'], /--draw-offer-rate must be a number from 0/],
  ])('%j: one line, exit 2, nothing written', (args, message) => {
    const dir = tempDir('dice-args-');
    const r = cli(dir, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^dice-dialects: [^\n]+\n$/);
    expect(r.stderr).toMatch(message);
    expect(spawnSync('ls', ['-A', dir], { encoding: 'utf8' }).stdout).toBe('');
  });

  it('a mistyped command is named as unknown, with the suggestion; an unknown option is named once', () => {
    const dir = tempDir('dice-args-');
    const command = cli(dir, 'mvoes');
    expect(command.status).toBe(2);
    expect(command.stderr).toBe('dice-dialects: unknown command "mvoes". Did you mean moves?\n');
    const option = cli(dir, 'replay', 'x.ndjson', '--dialect', 'reference', '--out', 'a', '--bogus-flag');
    expect(option.status).toBe(2);
    expect(option.stderr).toBe('dice-dialects: Unknown argument: bogus-flag\n');
  });

  it('cases: a missing --dir is one line and exit 2; a run that checked no expectation is not a pass', () => {
    const dir = tempDir('dice-cases-');
    const missing = cli(dir, 'cases', '--dir', 'nope');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('dice-dialects: --dir nope: not a folder of case files\n');
    spawnSync('mkdir', [join(dir, 'empty')]);
    for (const args of [['cases', '--dir', 'empty'], ['cases', '--matrix', '--dir', 'empty']]) {
      const r = cli(dir, ...args);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/warning: no case/);
    }
  });

  it.each([[[]], [['--to', 'csv', '--out', '/dev/stdout']]])('a reader that closes the pipe early stops the tool quietly, exit 0 (no EPIPE stack): convert %j', async (extra) => {
    const child = spawn(process.execPath, [bin, 'convert', join(root, 'corpora/samples/reference/games.ndjson.gz'), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(err).not.toMatch(/EPIPE|internal error/);
    expect(err).toBe('');
    expect(code).toBe(0);
  });
});
