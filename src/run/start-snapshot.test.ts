import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const snapshotFile = fileURLToPath(new URL('./fixtures/start-snapshot.json', import.meta.url));

/** `npm start`'s own command line (package.json), with its --out pointed at `out`. */
function startArgs(out: string): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['node', 'bin/dice-dialects.js']);
  const at = words.indexOf('--out');
  expect(at).toBeGreaterThan(0);
  words[at + 1] = out;
  return words.slice(1);
}

/**
 * A run folder's bytes with what differs from run to run taken out: `run_info` (machine facts,
 * timestamps, the options as resolved on this machine) and its rendering in the reports; and
 * the explorer's bundled code, which is the build's rather than the run's.
 */
function normalised(name: string, bytes: Buffer): Buffer {
  const text = (): string => bytes.toString('utf8');
  switch (name) {
    case 'summary.json': {
      const summary = JSON.parse(text()) as Record<string, unknown>;
      expect(summary).toHaveProperty('run_info');
      delete summary.run_info;
      return Buffer.from(JSON.stringify(summary, null, 2));
    }
    case 'report.md': {
      const at = text().indexOf('\n## Run info\n');
      expect(at).toBeGreaterThan(0);
      return Buffer.from(text().slice(0, at));
    }
    case 'report.html': {
      const start = text().indexOf('<h2>Run info</h2>');
      const end = text().indexOf('</table>', start);
      expect(start).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(start);
      return Buffer.from(text().slice(0, start) + text().slice(end));
    }
    case 'explorer.html': {
      // The page's code is the build's bundle of the rules (its bytes change with any edit of
      // them; the browser tests hold what it does): the page around it and its data are compared.
      const start = text().indexOf('<script>');
      const end = text().indexOf('</script>', start);
      expect(start).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(start);
      return Buffer.from(`${text().slice(0, start)}<script>(the page bundle)${text().slice(end)}`);
    }
    default:
      return bytes;
  }
}

interface Snapshot {
  /** SHA-256 of every file of the folder, normalised. */
  files: Record<string, string>;
  /** The summary's counts, to say what changed when a hash does. */
  totals: unknown;
  byDialect: unknown;
  /** What the command said, its duration taken out. */
  stderr?: string;
}

function snapshotOf(dir: string): Snapshot {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    files[name] = createHash('sha256').update(normalised(name, readFileSync(join(dir, name)))).digest('hex');
  }
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Snapshot;
  return { files, totals: summary.totals, byDialect: summary.byDialect };
}

const run = (args: string[]): Promise<{ code: number | null; err: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });

describe("npm start's run folder (corpora/samples under every dialect)", () => {
  // A change meant to change what the tool writes updates the snapshot on purpose:
  //   UPDATE_START_SNAPSHOT=1 npx vitest run src/run/start-snapshot.test.ts
  it('is byte for byte the recorded one, outside run_info', async () => {
    const out = join(tempDir('dice-start-'), 'latest');
    const { code, err } = await run(startArgs(out));
    expect(code).toBe(0);
    const got = { ...snapshotOf(out), stderr: err.replace(/ in \d+(\.\d+)? m?s:/, ' in <duration>:') };
    if (process.env.UPDATE_START_SNAPSHOT === '1') writeFileSync(snapshotFile, `${JSON.stringify(got, null, 2)}\n`);
    const want = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Snapshot;
    expect(got.totals).toEqual(want.totals);
    expect(got.byDialect).toEqual(want.byDialect);
    expect(got.files).toEqual(want.files);
    expect(got.stderr).toBe(want.stderr);
  }, 600_000);
});
