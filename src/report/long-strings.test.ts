import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect } from '../dialects/index.js';
import { randomGame } from '../records/test-support/random-game.js';
import { makeRecordText } from '../records/write.js';
import { runReplay } from '../run/replay.js';

const dir = mkdtempSync(join(tmpdir(), 'long-strings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('very long strings in the input', () => {
  it('are cut with an ellipsis in report.md and report.html, and kept whole in results.ndjson and summary.json', async () => {
    const longId = `g${'x'.repeat(300_000)}`;
    const good = randomGame(5, { turns: 2 });
    // One record that cannot be read (a bad start position), with its 300,000-character id.
    const bad = JSON.parse(makeRecordText('ndjson', randomGame(6, { turns: 2 })));
    bad.id = longId;
    bad.startFen = 'not a position';
    const file = join(dir, 'long.ndjson');
    writeFileSync(file, makeRecordText('ndjson', good) + `${JSON.stringify(bad)}\n`);
    const d = loadDialect('reference');
    if (!d.ok) throw new Error('reference');
    const out = join(dir, 'run');
    await runReplay({ sources: [file], dialects: [{ dialect: d.value, overrides: [] }], out, jobs: 1 });
    expect(readFileSync(join(out, 'results.ndjson'), 'utf8')).toContain(longId);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toContain(longId);
    for (const report of ['report.md', 'report.html']) {
      const text = readFileSync(join(out, report), 'utf8');
      expect(text.length, report).toBeLessThan(60_000);
      expect(text, report).toMatch(/gxxxxxxxxxx+…/);
    }
  });
});
