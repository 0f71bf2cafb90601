import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-dir.js';
import { cli } from './test-support/runs.js';

it('replay --history and merge --history record what they write; a shard alone is refused; a bad database fails before the run', { timeout: 300_000 }, () => {
  const dir = tempDir('history-hooks-');
  const corpus = join(dir, 'games.ndjson');
  expect(cli(['generate', '--dialect', 'reference', '--games', '12', '--seed', 'hooks', '--format', 'ndjson', '--out', corpus, '--quiet']).code).toBe(0);
  const db = join(dir, 'h.db');
  const replay = cli(['replay', corpus, '--dialect', 'reference', '--jobs', '1', '--quiet', '--out', join(dir, 'whole'), '--history', db]);
  expect(replay.code).toBe(0);
  expect(replay.err).toMatch(/^history: recorded .*whole as run 1 in /);
  for (const k of [1, 2]) expect(cli(['replay', corpus, '--dialect', 'reference', '--jobs', '1', '--quiet', '--shard', `${k}/2`, '--out', join(dir, `shard-${k}`)]).code).toBe(0);
  const merge = cli(['merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '--out', join(dir, 'merged'), '--quiet', '--history', db]);
  expect(merge.code).toBe(0);
  expect(merge.err).toMatch(/^history: recorded .*merged as run 2 in /);
  const runs = JSON.parse(cli(['history', 'runs', '--db', db, '--json']).out).runs;
  expect(runs.map((r: { kind: string; sharded: boolean }) => [r.kind, r.sharded])).toEqual([
    ['merge', true],
    ['replay', false],
  ]);
  // The merged run is the whole run, record for record.
  expect(JSON.parse(cli(['history', 'diff', '1', '2', '--db', db, '--json']).out).unchanged).toBe(24 / 2);
  const shard = cli(['replay', corpus, '--dialect', 'reference', '--quiet', '--shard', '1/2', '--out', join(dir, 'x'), '--history', db]);
  expect(shard.code).toBe(2);
  expect(shard.err).toMatch(/--history records whole runs/);
  const bad = cli(['replay', corpus, '--dialect', 'reference', '--quiet', '--out', join(dir, 'never'), '--history', 'postgres://nobody@127.0.0.1:1/x']);
  expect(bad.code).toBe(2);
  expect(bad.err.trim().split('\n')).toHaveLength(1);
  expect(existsSync(join(dir, 'never'))).toBe(false);
  // A shard folder given to history record: refused with what to do instead.
  const r = cli(['history', 'record', join(dir, 'shard-1'), '--db', db]);
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/one shard's partial run folder: merge the shards/);
});
