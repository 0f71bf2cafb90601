import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The newest modification time of the non-test sources under `dir`, with the file. */
function newestSource(dir: string): { file: string; mtime: number } {
  let best = { file: '', mtime: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'test-support') continue;
      const inner = newestSource(path);
      if (inner.mtime > best.mtime) best = inner;
    } else if (/\.(c|m)?ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
      const mtime = statSync(path).mtimeMs;
      if (mtime > best.mtime) best = { file: path, mtime };
    }
  }
  return best;
}

/**
 * Why the built code in dist/ cannot stand for the sources (missing, or older than a source
 * file), as one line; null when it is up to date. Tests that run the built command line
 * test dist/, not src/: `npm test` builds first, a plain `vitest` does not.
 */
export function distProblem(root: string, built: readonly string[] = ['dist/bundle/cli.cjs', 'dist/index.js']): string | null {
  for (const file of built) {
    const path = join(root, file);
    if (!existsSync(path)) return `${file} is missing: run \`npm run build\` (\`npm test\` builds first)`;
  }
  const oldest = Math.min(...built.map((f) => statSync(join(root, f)).mtimeMs));
  const newest = newestSource(join(root, 'src'));
  if (newest.mtime > oldest) return `dist/ is stale: ${relative(root, newest.file)} changed after the last build; run \`npm run build\` (\`npm test\` builds first)`;
  return null;
}
