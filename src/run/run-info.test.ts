import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync } from 'node:fs';
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

  it("gives each file source's SHA-256 of its bytes as stored, read whole, stopped by --limit, gzipped, or named twice", () => {
    const dir = tempDir('dice-runinfo-');
    copyFileSync(join(root, 'corpora/samples/reference/games.ndjson.gz'), join(dir, 'g.ndjson.gz'));
    const plain = gunzipSync(readFileSync(join(dir, 'g.ndjson.gz')));
    writeFileSync(join(dir, 'g.ndjson'), plain);
    const sha = (f: string): string => createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
    for (const extra of [['--jobs', '1'], ['--jobs', '1', '--limit', '3'], ['--jobs', '2', '--force-jobs']]) {
      const r = spawnSync(process.execPath, [join(root, 'bin/dice-dialects.js'), 'replay', 'g.ndjson', 'g.ndjson.gz', 'g.ndjson', '--dialect', 'reference', ...extra, '--out', 'run', '--quiet'], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const { sources } = JSON.parse(readFileSync(join(dir, 'run/summary.json'), 'utf8')).run_info;
      expect(sources, extra.join(' ')).toEqual([
        { source: 'g.ndjson', sha256: sha('g.ndjson') },
        { source: 'g.ndjson.gz', sha256: sha('g.ndjson.gz') },
        { source: 'g.ndjson', sha256: sha('g.ndjson') },
      ]);
    }
  });
});
