import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/test-support/run-cli.js';
import { packageRoot } from '../dialects/index.js';
import type { InferDocument } from './document.js';

/** infer judges on the run pipeline: in worker threads (the built tool) as in one thread, the same document. */
describe('infer in worker threads', () => {
  it('--jobs 2 gives the --jobs 1 document (timing apart), the document alone on stdout', async () => {
    const sources = ['dicechess-com/games.csv.gz', 'planted'].map((s) => join(packageRoot(), 'corpora/samples', s));
    const run = async (jobs: string): Promise<Omit<InferDocument, 'timing'>> => {
      const r = await runCli('infer', ...sources, '--dialect', 'dicechess-com', '--option', 'maximum', '--option', 'enPassant.window', '--limit', '300', '--json', '--jobs', jobs, '--force-jobs');
      expect(r.code).toBe(0);
      const { timing: _timing, ...doc } = JSON.parse(r.out) as InferDocument;
      return doc;
    };
    const one = await run('1');
    expect(one.games).toBeGreaterThan(0);
    expect(await run('2')).toEqual(one);
  }, 240_000);
});
