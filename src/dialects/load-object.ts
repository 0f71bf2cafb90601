import type { Result } from '../core/errors.js';
import { type Dialect, type DialectProblem, type DialectStore, loadFromStore } from './resolve.js';
import { infoOf, looksLikePath, matchDialect } from './names.js';

export interface ObjectLoadOptions {
  /**
   * Definitions an `extends` (or a name given instead of an object) may name, by name or
   * alias: usually the shipped dialect files, parsed (in a browser, imported as JSON).
   */
  known?: readonly unknown[];
}

const OBJECT = '<object>';

/**
 * Loads a dialect given as an object (a parsed dialect file) or as the name or alias of
 * one of `known`, then applies `--set path=value` overrides. The same validation as files;
 * no file system, so it runs in a browser.
 */
export function loadDialectObject(definition: unknown, overrides: readonly string[] = [], options: ObjectLoadOptions = {}): Result<Dialect, DialectProblem[]> {
  const entries = (options.known ?? []).map((data, i) => {
    const info = infoOf(data, `known-${i}`, '');
    return { ...info, file: `<object ${info.name}>`, text: JSON.stringify(data) };
  });
  const store: DialectStore = {
    locate(nameOrKey) {
      if (nameOrKey === OBJECT) return { ok: true, value: OBJECT };
      const hit = matchDialect(entries, nameOrKey);
      if (hit !== null) return { ok: true, value: hit.file };
      return {
        ok: false,
        error: [{ path: '', code: 'dialect.unknown', message: `unknown dialect "${nameOrKey}" (known: ${entries.map((e) => e.name).join(', ') || 'none'})` }],
      };
    },
    read(key) {
      if (key === OBJECT) return { ok: true, value: JSON.stringify(definition) ?? 'undefined' };
      const hit = entries.find((e) => e.file === key);
      return hit ? { ok: true, value: hit.text } : { ok: false, error: { path: '', code: 'dialect.read', message: `no definition for ${key}` } };
    },
    parent(child, ext) {
      const hit = looksLikePath(ext) ? null : matchDialect(entries, ext);
      if (hit !== null && hit.file !== child) return { ok: true, value: hit.file };
      const why = looksLikePath(ext) ? 'a dialect given as an object extends others by name, not by path' : `it is not a known dialect (known: ${entries.map((e) => e.name).join(', ') || 'none'})`;
      return { ok: false, error: { path: 'extends', code: 'dialect.extends', message: `parent "${ext}": ${why}`, file: child } };
    },
  };
  const r = loadFromStore(typeof definition === 'string' ? definition : OBJECT, overrides, store);
  if (r.ok && r.value.file === OBJECT) r.value.file = `<object ${r.value.name}>`;
  return r;
}
