import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup: the whole test run gets a temp dir of its own (TMPDIR, inherited
 * by test workers and every process they start), and the run fails when a test left
 * anything in it. The folder goes either way: `npm test` leaves nothing behind.
 */
export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'dice-dialects-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (left.length > 0) process.exitCode = 1;
    if (left.length > 0) throw new Error(`tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temp dir (each test must remove what it makes): ${left.slice(0, 10).join(', ')}`);
  };
}
