import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RUN_MARKER } from '../output/output-path.js';
import { tempDir } from '../test-support/temp-dir.js';
import { openRunDir, RUN_FILES } from './run-dir.js';
import { RunAccumulator as SummaryBuilder } from '../run/accumulator.js';
import { Summary } from '../report/summary-schema.js';
import { checkXml } from '../report/test-support/xml-check.js';
import { DIALECTS, RUN_INFO, sampleDiceTurns, sampleLines } from '../report/test-support/fixtures.js';

async function writeRun(dir: string, opts?: { junitPerGame?: boolean }) {
  const run = await openRunDir(dir);
  const b = new SummaryBuilder(DIALECTS);
  for (const line of sampleLines()) {
    run.resultsStream.write(`${JSON.stringify(line)}\n`);
    b.addResult(line);
  }
  for (const t of sampleDiceTurns()) b.addDiceTurn(t);
  await run.finish(b.build(RUN_INFO), opts);
  return run;
}

describe('openRunDir', () => {
  it('publishes a complete folder only at finish', async () => {
    const root = tempDir('dice-run-');
    const dir = join(root, 'reports', 'latest');
    const run = await openRunDir(dir);
    run.resultsStream.write(`${JSON.stringify(sampleLines()[0])}\n`);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(run.tmpDir)).toBe(true);
    const b = new SummaryBuilder(DIALECTS);
    b.addResult(sampleLines()[0]);
    await run.finish(b.build(RUN_INFO));
    expect((await readdir(dir)).sort()).toEqual([RUN_MARKER, ...RUN_FILES].sort());
    expect(existsSync(run.tmpDir)).toBe(false);
    const summary = Summary.parse(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')));
    expect(summary.totals.lines).toBe(1);
    await expect(run.finish(b.build(RUN_INFO))).rejects.toThrow(/already closed/);
  });

  it('replaces the previous run and leaves no .previous behind', async () => {
    const root = tempDir('dice-run-');
    const dir = join(root, 'latest');
    await writeRun(dir);
    await writeRun(dir, { junitPerGame: true });
    expect(existsSync(`${dir}.previous`)).toBe(false);
    expect((await readdir(root)).sort()).toEqual(['latest']);
    const results = (await readFile(join(dir, 'results.ndjson'), 'utf8')).trim().split('\n');
    expect(results).toHaveLength(18);
    const junit = checkXml(await readFile(join(dir, 'junit.xml'), 'utf8'));
    expect(junit.elements.filter((e) => e === 'testcase')).toHaveLength(12 + 18);
  });

  it('reads every line written into the per-game JUnit, however far the writes lag (finish waits for the file)', async () => {
    const dir = join(tempDir('dice-run-'), 'latest');
    const run = await openRunDir(dir);
    const b = new SummaryBuilder(DIALECTS);
    const lines = sampleLines();
    const copies = 50;
    // Held in the stream's buffer (as a loaded machine holds it) until finish() ends the stream.
    (run.resultsStream as unknown as Writable).cork();
    for (let c = 0; c < copies; c++) {
      for (const line of lines) {
        const copy = { ...line, id: `${line.id}-${c}` };
        run.resultsStream.write(`${JSON.stringify(copy)}\n`);
        b.addResult(copy);
      }
    }
    await run.finish(b.build(RUN_INFO), { junitPerGame: true });
    const junit = checkXml(await readFile(join(dir, 'junit.xml'), 'utf8'));
    expect(junit.elements.filter((e) => e === 'testcase')).toHaveLength(12 + lines.length * copies);
  });

  it('refuses a folder it did not write, before writing anything', async () => {
    const root = tempDir('dice-run-');
    const dir = join(root, 'mine');
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'keep');
    await expect(openRunDir(dir)).rejects.toThrow(/not a run folder/);
    expect((await readdir(root)).sort()).toEqual(['mine']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('keep');
  });

  it('never replaces a previous run that holds what the tool did not write: it would delete it', async () => {
    const root = tempDir('dice-run-');
    const dir = join(root, 'latest');
    await writeRun(dir);
    const before = (await readdir(dir)).sort();
    await writeFile(join(dir, 'NOTES.md'), 'my notes');
    await mkdir(join(dir, 'attachments'));
    await writeFile(join(dir, 'attachments', 'a.txt'), 'a');
    await expect(openRunDir(dir)).rejects.toThrow(/also holds what dice-dialects did not write \(NOTES\.md, attachments\/\)/);
    expect(await readFile(join(dir, 'NOTES.md'), 'utf8')).toBe('my notes');
    expect(await readFile(join(dir, 'attachments', 'a.txt'), 'utf8')).toBe('a');
    expect((await readdir(root)).sort()).toEqual(['latest']);
    // A folder in place of one of the run's own file names is not the run's either.
    await rm(join(dir, 'NOTES.md'));
    await rm(join(dir, 'attachments'), { recursive: true });
    await rm(join(dir, 'junit.xml'));
    await mkdir(join(dir, 'junit.xml'));
    await expect(openRunDir(dir)).rejects.toThrow(/\(junit\.xml\/\)/);
    await rm(join(dir, 'junit.xml'), { recursive: true });
    // Only the run's own files again: replaced.
    await writeRun(dir);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it('writes the same bytes for the same input', async () => {
    const root = tempDir('dice-run-');
    await writeRun(join(root, 'a'));
    await writeRun(join(root, 'b'));
    for (const f of RUN_FILES) {
      expect(await readFile(join(root, 'b', f), 'utf8'), f).toBe(await readFile(join(root, 'a', f), 'utf8'));
    }
  });

  /** A good run in `latest`, a second one opened over it, `fail` done to the second; then the first is all there is. */
  async function failedOverGoodRun(fail: (run: Awaited<ReturnType<typeof openRunDir>>, dir: string) => Promise<void>): Promise<void> {
    const root = tempDir('dice-run-');
    const dir = join(root, 'latest');
    await writeRun(dir);
    const before = await readFile(join(dir, 'report.md'), 'utf8');
    const run = await openRunDir(dir);
    await fail(run, dir);
    expect(existsSync(run.tmpDir)).toBe(false);
    expect(await readFile(join(dir, 'report.md'), 'utf8')).toBe(before);
    expect((await readdir(root)).sort()).toEqual(['latest']);
  }

  it('abort removes the temporary folder and keeps the last good run', async () => {
    await failedOverGoodRun(async (run) => {
      run.resultsStream.write('{"partial": true}\n');
      await run.abort();
    });
  });

  it('a report that cannot be written (here a folder in its place) fails the finish in one line naming --out, and keeps the last good run', async () => {
    await failedOverGoodRun(async (run, dir) => {
      await mkdir(join(run.tmpDir, 'report.html'));
      const b = new SummaryBuilder(DIALECTS);
      b.addResult(sampleLines()[0]);
      const failure = await run.finish(b.build(RUN_INFO)).then(() => null, (e: unknown) => e);
      expect(failure).toMatchObject({ code: 'output.io', message: `--out ${dir}: cannot write: is a folder` });
    });
  });
});
