import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { randomGame } from '../records/test-support/random-game.js';
import { makeRecordText } from '../records/write.js';
import { runCli } from '../cli/test-support/run-cli.js';
import { GameResultLine } from '../replay/result.js';
import { runReplay } from './replay.js';

const dir = mkdtempSync(join(tmpdir(), 'unreadable-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reference = (() => {
  const d = loadDialect('reference');
  if (!d.ok) throw new Error('reference');
  return { dialect: d.value, overrides: [] };
})();

// A record (so the format is told), 20,000 identical bad lines, a record, then 5 bad lines of another kind.
const corpus = join(dir, 'junk.ndjson.gz');
const BAD = 20_000;
writeFileSync(corpus, gzipSync(makeRecordText('ndjson', randomGame(1, { turns: 2 })) + '{}\n'.repeat(BAD) + makeRecordText('ndjson', randomGame(2, { turns: 2 })) + '[]\n'.repeat(5)));

describe('repeated identical unreadable entries', () => {
  it.each([1, 2])('are written in full 10 times per source and then folded into one entry with the count and line ranges (jobs %i)', async (jobs) => {
    const out = join(dir, `run-${jobs}`);
    const { summary } = await runReplay({ sources: [corpus], dialects: [reference], out, jobs, forceJobs: true });
    // Every record is still counted.
    expect(summary.totals.lines).toBe(BAD + 7);
    expect(summary.totals.unreadable).toBe(BAD + 5);
    expect(summary.byRule['record.missing-field'].games).toBe(BAD);
    const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => GameResultLine.parse(JSON.parse(l)));
    expect(statSync(join(out, 'results.ndjson')).size).toBeLessThan(20_000);
    const missing = lines.filter((l) => l.findings[0]?.rule === 'record.missing-field');
    expect(missing).toHaveLength(11);
    const folded = missing.filter((l) => l.repeats !== undefined);
    expect(folded).toHaveLength(1);
    expect(folded[0].repeats).toBe(BAD - 10);
    expect(folded[0].index).toBe(11);
    expect(folded[0].findings[0].message).toMatch(/^19990 more records like this, .*, at lines 12–20001;/);
    expect(folded[0].findings[0].location).toBe(`${corpus}:12-20001`);
    // Under the cap: each in full. The records are there too.
    expect(lines.filter((l) => l.findings[0]?.rule === 'record.bad-field' || l.findings[0]?.rule === 'record.bad-json').length + lines.filter((l) => l.status !== 'unreadable').length).toBe(7);
    expect(lines.reduce((n, l) => n + (l.repeats ?? 1), 0)).toBe(BAD + 7);
  });

  it('line ranges of folded entries between good records are listed, and a long list is cut with a count', async () => {
    const good = (i: number) => makeRecordText('ndjson', randomGame(i, { turns: 1 }));
    const text = [good(0), ...Array.from({ length: 60 }, (_, i) => `{}\n{}\n${good(i + 1)}`)].join('');
    const file = join(dir, 'striped.ndjson');
    writeFileSync(file, text);
    const out = join(dir, 'run-striped');
    await runReplay({ sources: [file], dialects: [reference], out, jobs: 1 });
    const lines = readFileSync(join(out, 'results.ndjson'), 'utf8').trim().split('\n').map((l) => GameResultLine.parse(JSON.parse(l)));
    const folded = lines.filter((l) => l.repeats !== undefined);
    expect(folded).toHaveLength(1);
    expect(folded[0].repeats).toBe(110);
    // Lines 2,3 then 5,6 … : the first 10 in full (to line 15), the folded ones from 17.
    expect(folded[0].findings[0].message).toMatch(/lines 17–18, 20–21, .*, and \d+ more ranges/);
  });

  it('convert folds them on stderr the same way', async () => {
    const r = await runCli('convert', corpus, '--out', join(dir, 'converted.ndjson'));
    expect(r.code).toBe(1);
    const err = r.err.trim().split('\n');
    expect(err.at(-1)).toBe(`read 2, unreadable ${BAD + 5}`);
    expect(err.length).toBeLessThan(30);
    expect(err.some((l) => /19990 more records like this/.test(l))).toBe(true);
  });
});
