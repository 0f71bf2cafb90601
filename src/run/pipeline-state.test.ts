import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import type { StatefulJudge } from './batch.js';
import { runCorpus } from './pipeline.js';
import { tempDir } from '../test-support/temp-dir.js';

/** A judge with state of its own and no result lines: the input positions it saw, and how many records were unreadable. */
interface Seen {
  indexes: number[];
  unreadable: number;
  corpora: string[];
  batches: number;
}
const empty = (): Seen => ({ indexes: [], unreadable: 0, corpora: [], batches: 0 });
const createJudge = (): StatefulJudge<Seen> => {
  let seen = empty();
  return {
    judge: (item, _emit, corpus) => {
      if (item.kind === 'unreadable') seen.unreadable++;
      else if (item.kind === 'record') seen.indexes.push(item.index);
      if (corpus !== null && !seen.corpora.includes(corpus)) seen.corpora.push(corpus);
    },
    takeState: () => {
      const s = { ...seen, batches: 1 };
      seen = empty();
      return s;
    },
  };
};
const merge = (into: Seen, part: Seen): Seen => ({
  indexes: [...into.indexes, ...part.indexes],
  unreadable: into.unreadable + part.unreadable,
  batches: into.batches + part.batches,
  corpora: [...into.corpora, ...part.corpora.filter((c) => !into.corpora.includes(c))],
});

describe('runCorpus: a judge with mergeable state of its own', () => {
  it('merges every batch’s partial state in input order, and without `out` writes no run folder', async () => {
    const dir = tempDir('pipeline-state-');
    const sample = (name: string): string => join(packageRoot(), 'corpora/samples', name);
    const sources = [sample('reference/games.ndjson.gz'), sample('chess/games.ndjson.gz'), sample('dicechess-com/games.csv.gz'), join(dir, 'no-such-file.ndjson')];
    const r = await runCorpus<null, Seen>({
      sources,
      jobs: 1,
      judge: { columns: [], module: new URL('./pipeline-state.test.js', import.meta.url), params: null, create: createJudge, state: { initial: empty, merge } },
      about: { dialects: {}, options: {} },
    });
    const seen = r.state!;
    // Several batches, merged back in input order.
    expect(seen.batches).toBeGreaterThan(1);
    expect(seen.indexes).toEqual(seen.indexes.map((_, i) => i));
    expect(seen.unreadable).toBe(1);
    expect(r.sourceErrors).toBe(1);
    expect(r.progress.records).toBe(seen.indexes.length + 1);
    expect(seen.corpora).toEqual(sources);
    expect(readdirSync(dir)).toEqual([]);
    expect(existsSync(join(process.cwd(), 'results.ndjson'))).toBe(false);
  }, 120_000);

  it('a shard needs a run folder', async () => {
    await expect(
      runCorpus({ sources: [], shard: { k: 1, n: 2 }, judge: { columns: [], module: new URL(import.meta.url), params: null, create: createJudge }, about: { dialects: {}, options: {} } }),
    ).rejects.toThrow(/run folder/);
  });
});
