import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDialect, packageRoot } from '../dialects/index.js';
import { mergeShards } from './merge.js';
import { runReplay } from './replay.js';

const root = mkdtempSync(join(tmpdir(), 'merge-prop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const lines = (path: string) => gunzipSync(readFileSync(join(packageRoot(), 'corpora/samples', path))).toString('utf8').split('\n').filter(Boolean);
const CSV = lines('dicechess-com/games.csv.gz');
/** Native NDJSON, ingest-wire, native chess games, and CSV rows (a file of them gets the header first). */
const POOLS = [lines('reference/games.ndjson.gz'), lines('reference/games.ingest-wire.ndjson.gz'), lines('chess/games.ndjson.gz'), CSV.slice(1)];
const dialect = (name: string) => {
  const d = loadDialect(name, []);
  if (!d.ok) throw new Error(name);
  return { dialect: d.value, overrides: [] };
};

/** What an unsharded run and a merged one must share byte for byte. */
function comparable(run: string): string[] {
  const read = (f: string) => readFileSync(join(run, f), 'utf8');
  const summary = JSON.parse(read('summary.json'));
  delete summary.run_info;
  const cut = (text: string, mark: string) => text.slice(0, text.indexOf(mark));
  return [read('results.ndjson'), read('junit.xml'), JSON.stringify(summary), cut(read('report.md'), '## Run info'), cut(read('report.html'), '<h2>Run info</h2>')];
}

const file = fc.record({
  pool: fc.integer({ min: 0, max: POOLS.length - 1 }),
  from: fc.integer({ min: 0, max: 199 }),
  count: fc.integer({ min: 0, max: 60 }),
  garbageAt: fc.option(fc.integer({ min: 0, max: 25 })),
  gzip: fc.boolean(),
});

describe('merge of N shards = the single run (property, in process)', () => {
  it('random corpora (formats, sizes, bad lines, gzip), random N, block sizes and dialects', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(file, { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.subarray(['reference', 'chess', 'dicechess-com'], { minLength: 1 }),
        fc.boolean(),
        fc.boolean(),
        async (files, n, block, names, continueAfterDivergence, folder) => {
          const dir = join(root, `r${run++}`);
          const corpus = join(dir, 'corpus');
          mkdirSync(corpus, { recursive: true });
          const paths = files.map((f, i) => {
            const picked = POOLS[f.pool].slice(f.from, f.from + f.count);
            if (f.garbageAt !== null) picked.splice(Math.min(f.garbageAt, picked.length), 0, '{"broken": ');
            if (f.pool === 3) picked.unshift(CSV[0]);
            const text = picked.length ? `${picked.join('\n')}\n` : '';
            const path = join(corpus, `f${i}.${f.pool === 3 ? 'csv' : 'ndjson'}${f.gzip ? '.gz' : ''}`);
            writeFileSync(path, f.gzip ? gzipSync(text) : text);
            return path;
          });
          const sources = folder ? [corpus] : paths;
          const dialects = names.map(dialect);
          const common = { sources, dialects, jobs: 1, continueAfterDivergence };
          await runReplay({ ...common, out: join(dir, 'single') });
          const shards = Array.from({ length: n }, (_, i) => join(dir, `s${i + 1}`));
          for (let k = 1; k <= n; k++) await runReplay({ ...common, out: shards[k - 1], shard: { k, n }, shardBlock: block });
          await mergeShards([...shards].reverse(), join(dir, 'merged'));
          expect(comparable(join(dir, 'merged'))).toEqual(comparable(join(dir, 'single')));
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);
});
