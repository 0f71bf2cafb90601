import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type DialectInfo, infoOf, matchDialect } from './names.js';
import { DIALECTS_DIR } from './paths.js';

export { type DialectInfo, looksLikePath } from './names.js';

const cache = new Map<string, DialectInfo[]>();

/**
 * The dialect files in `dir` (default: the shipped `dialects/`), sorted by name. Only
 * their metadata is read here; `loadDialect` validates. A file whose JSON cannot be read
 * is listed under its file name so that loading it reports the problem.
 */
export function listDialects(dir: string = DIALECTS_DIR): DialectInfo[] {
  const hit = cache.get(dir);
  if (hit) return hit;
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    files = [];
  }
  const out: DialectInfo[] = [];
  for (const f of files) {
    const file = join(dir, f);
    let data: unknown = null;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      data = null;
    }
    out.push(infoOf(data, basename(f, '.json'), file));
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  cache.set(dir, out);
  return out;
}

/** Forget cached listings (tests that write dialect folders). */
export function clearRegistryCache(): void {
  cache.clear();
}

/** The shipped dialect a name or alias (any case) stands for, or null. */
export function findDialect(nameOrAlias: string, dir: string = DIALECTS_DIR): DialectInfo | null {
  return matchDialect(listDialects(dir), nameOrAlias);
}

/**
 * Registry-level problems: two files claiming one name or alias, a file whose name is
 * not its file name.
 */
export function registryProblems(dir: string = DIALECTS_DIR): Array<{ file: string; message: string }> {
  const out: Array<{ file: string; message: string }> = [];
  const owner = new Map<string, string>();
  for (const d of listDialects(dir)) {
    if (basename(d.file, '.json') !== d.name) out.push({ file: d.file, message: `name "${d.name}" differs from the file name` });
    for (const key of [d.name, ...d.aliases.map((a) => a.toLowerCase())]) {
      const prev = owner.get(key);
      if (prev !== undefined && prev !== d.name) out.push({ file: d.file, message: `"${key}" is also claimed by dialect "${prev}"` });
      else owner.set(key, d.name);
    }
  }
  return out;
}
