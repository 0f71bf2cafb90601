import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ShippedDialect, loadDialect, shippedDialects } from './load.js';
import { DIALECTS_DIR, packageRoot } from './paths.js';
import { listDialects } from './registry.js';

/** The folder the build writes beside the bundles, a file per dialect (scripts/build-bundles.mjs); the tests run on a build. */
const built = (): Record<string, ShippedDialect> => {
  const dir = join(packageRoot(), 'dist/bundle/dialects.cache');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, JSON.parse(readFileSync(join(dir, name), 'utf8')) as ShippedDialect]));
};

describe('the shipped dialects as the build loaded them (what the bundles take instead of the schema)', () => {
  it('are, for every shipped dialect, the very dialect its files load to, with the texts they hold now', () => {
    const cache = built();
    const names = listDialects().map((d) => d.file.slice(DIALECTS_DIR.length + 1)).sort();
    expect(Object.keys(cache).sort()).toEqual(names);
    for (const [name, entry] of Object.entries(cache)) {
      const file = join(DIALECTS_DIR, name);
      const loaded = loadDialect(file);
      expect(loaded.ok).toBe(true);
      if (!loaded.ok) continue;
      expect({ ...JSON.parse(entry.dialect), file }).toEqual(loaded.value);
      expect(entry.texts[0]).toBe(readFileSync(file, 'utf8'));
    }
    expect(shippedDialects()).toEqual(cache);
  });
});
