import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';

const root = packageRoot();

describe('run info', () => {
  it("names dialect files relative to the tool's folder or the working folder, never by this machine's absolute path", () => {
    const dir = tempDir('dice-runinfo-');
    writeFileSync(join(dir, 'house.json'), JSON.stringify({ name: 'house', title: 'House rules', extends: 'reference' }));
    const games = gunzipSync(readFileSync(join(root, 'corpora/samples/reference/games.ndjson.gz'))).toString('utf8').split('\n').slice(0, 2).join('\n');
    writeFileSync(join(dir, 'g.ndjson'), `${games}\n`);
    const r = spawnSync(process.execPath, [join(root, 'bin/dice-dialects.js'), 'replay', 'g.ndjson', '--dialect', 'reference', '--dialect', './house.json', '--jobs', '1', '--out', 'run', '--quiet'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(readFileSync(join(dir, 'run/summary.json'), 'utf8')).run_info;
    expect(Object.values(info.dialects).map((d) => (d as { file: string }).file).sort()).toEqual(['dialects/reference.json', 'house.json']);
    for (const f of ['report.md', 'report.html', 'summary.json']) expect(readFileSync(join(dir, 'run', f), 'utf8')).not.toContain(root);
  });
});
