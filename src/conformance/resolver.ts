import { formatProblem, loadDialect } from '../dialects/index.js';
import type { DialectResolver } from './suite.js';

/** Resolves `name` or `name+path=value+path=value` through the dialect loader (cached per key). */
export function dialectResolver(dir?: string): DialectResolver {
  const cache = new Map<string, ReturnType<DialectResolver>>();
  return (key) => {
    const hit = cache.get(key);
    if (hit) return hit;
    const [name, ...overrides] = key.split('+');
    const loaded = loadDialect(name, overrides, dir === undefined ? {} : { dir });
    const r: ReturnType<DialectResolver> = loaded.ok
      ? { ok: true, name: loaded.value.name, rules: loaded.value.rules }
      : { ok: false, message: loaded.error.map(formatProblem).join('; ') };
    cache.set(key, r);
    return r;
  };
}
