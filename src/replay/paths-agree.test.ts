import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDialect, packageRoot } from '../dialects/index.js';
import { runReplay } from '../run/replay.js';

const root = packageRoot();
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-paths-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two dialects: one that plays every game through, one that stops most of them early.
const NAMES = ['reference', 'chess'];
const dialects = NAMES.map((name) => {
  const loaded = loadDialect(name);
  if (!loaded.ok) throw new Error(name);
  return { dialect: loaded.value, overrides: [] };
});

/** What a run must give byte for byte whatever the path: its results, and its summary outside `run_info`. */
function outcome(out: string): { results: string; summary: string } {
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  delete summary.run_info;
  return { results: readFileSync(join(out, 'results.ndjson'), 'utf8'), summary: JSON.stringify(summary) };
}

const cli = join(root, 'bin/dice-dialects.js');
// The run pipeline's worker (src/run since issue 13): without it the command line would judge in one thread only.
const built = join(root, 'dist/run/worker.js');
// No build, no test: the tests fail saying so (`npm test` builds first) instead of skipping.
beforeAll(() => {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` (\`npm test\` builds first)`);
});

/**
 * Every committed sample and fixture (the history list is no record source), in process from the sources, and
 * through the built command line with one thread and with worker threads (records cut as
 * bytes on the reading thread, decoded in the workers).
 */
describe('the replayer gives the same results on every path', () => {
  const fixtures = readdirSync(join(root, 'src/records/fixtures'), { withFileTypes: true }).filter((e) => e.isDirectory());
  const sets = { 'corpora/samples': [join(root, 'corpora/samples')], 'src/records/fixtures': fixtures.map((e) => join(root, 'src/records/fixtures', e.name)) };
  const historyList = join(root, 'src/records/fixtures/dicechess-com-history-list.json');
  const cases: Array<[string, string[], string[]]> = [
    ...Object.entries(sets).map(([folder, sources]): [string, string[], string[]] => [folder, sources, []]),
    // With a history list the records still travel raw: the list goes along in shared memory and is applied where they are decoded.
    ['dicechess.com fixtures with their history list', [join(root, 'src/records/fixtures/dicechess-com')], [historyList]],
  ];
  for (const [folder, sources, history] of cases) {
    it(`${folder}: in process, --jobs 1, --jobs 2`, async () => {
      const name = folder.replace(/\W/g, '-');
      const inProcess = join(dir, `${name}-in-process`);
      await runReplay({ sources, dialects, out: inProcess, jobs: 1, ...(history.length > 0 && { historyList: history }) });
      const expected = outcome(inProcess);
      expect(expected.results.split('\n').length).toBeGreaterThan(history.length > 0 ? 10 : 50);
      for (const jobs of [1, 2]) {
        const out = join(dir, `${name}-${jobs}`);
        execFileSync('node', [cli, 'replay', ...sources, ...history.flatMap((h) => ['--history-list', h]), ...NAMES.flatMap((n) => ['--dialect', n]), '--jobs', String(jobs), '--force-jobs', '--quiet', '--out', out]);
        const got = outcome(out);
        expect(got.results === expected.results, `results.ndjson, --jobs ${jobs}`).toBe(true);
        expect(got.summary).toBe(expected.summary);
      }
    }, 180_000);
  }
});
