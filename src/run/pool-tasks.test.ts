import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';

const root = packageRoot();
const built = join(root, 'dist/worker-pool.js');

/** The built pool (worker threads need the compiled entry), on a task module of the test's own. */
// No build, no test: the tests fail saying so (`npm test` builds first) instead of skipping.
beforeAll(() => {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` (\`npm test\` builds first)`);
});

describe('tasks on the worker pool', () => {
  it('hold nothing once settled: results are not kept alive by the pool-death watch', async () => {
    const m = (await import(pathToFileURL(built).href)) as typeof import('../worker-pool.js');
    const file = join(tempDir('pool-tasks-'), 'double.mjs');
    writeFileSync(file, 'export default (n) => { if (n === 7) throw new Error("seven"); return n * 2; };\n');
    const pool = m.workerPool(pathToFileURL(file), 2)!;
    try {
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => m.runTask<number>(pool, i).catch((e: Error) => e.message)));
      expect(results[3]).toBe(6);
      expect(results[7]).toBe('seven');
      expect(results[199]).toBe(398);
      expect(m.tasksWaiting(pool)).toBe(0);
    } finally {
      await pool.destroy();
    }
  });
});
