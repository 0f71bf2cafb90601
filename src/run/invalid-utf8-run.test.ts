import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { randomGame } from '../records/test-support/random-game.js';
import { makeRecordText } from '../records/write.js';
import { tempDir } from '../test-support/temp-dir.js';

describe('a record whose bytes are not UTF-8', () => {
  it('is judged, and counted in the summary and the reports as text replaced', async () => {
    const dir = tempDir('invalid-utf8-run-');
    const games = [0, 1, 2].map((i) => randomGame(900 + i, { turns: 2 }));
    games[1].players.white.name = 'MARKER1';
    const text = Buffer.from(games.map((g) => makeRecordText('ndjson', g)).join(''));
    text[text.indexOf('MARKER1') + 6] = 0xff;
    const file = join(dir, 'games.ndjson');
    writeFileSync(file, text);
    const out = join(dir, 'run');
    const r = await runCli('replay', file, '--dialect', 'reference', '--out', out, '--jobs', '1', '--quiet');
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.totals.lines).toBe(3);
    expect(summary.recordingFaults).toEqual({ 'text:invalid-utf8': { handling: 'replaced', records: 1, bySource: { [file]: 1 } } });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('| `text:invalid-utf8` | replaced | 1 |');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<code>text:invalid-utf8</code>');
  });
});
