import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Result } from '../core/errors.js';
import { type Dialect, type DialectProblem, type DialectStore, loadFromStore } from './resolve.js';
import { looksLikePath } from './names.js';
import { DIALECTS_DIR } from './paths.js';
import { findDialect, listDialects } from './registry.js';

export type { Dialect, DialectProblem, ResolvedSource } from './resolve.js';
export { parseOverride } from './resolve.js';

export interface LoadOptions {
  /** Folder of the named dialects (default: the shipped `dialects/`). */
  dir?: string;
}

/**
 * Loads a dialect by name, alias or file path (a named one from `dialects/`), with its
 * `extends` chain read from files, then applies `--set path=value` overrides.
 */
export function loadDialect(nameOrPath: string, overrides: readonly string[] = [], options: LoadOptions = {}): Result<Dialect, DialectProblem[]> {
  return loadFromStore(nameOrPath, overrides, fileStore(options.dir ?? DIALECTS_DIR));
}

/** Every problem of a dialect file (with its `extends` chain), [] when it loads. Same code path as `loadDialect`. */
export function checkDialectFile(path: string, overrides: readonly string[] = [], options: LoadOptions = {}): DialectProblem[] {
  const r = loadDialect(looksLikePath(path) ? path : `./${path}`, overrides, options);
  return r.ok ? [] : r.error;
}

/** Dialect files on disk: a path as given, or a name of the registry in `dir`. */
function fileStore(dir: string): DialectStore {
  const known = (): string => listDialects(dir).map((d) => d.name).join(', ');
  return {
    locate(nameOrPath) {
      if (looksLikePath(nameOrPath)) return { ok: true, value: resolve(nameOrPath) };
      const info = findDialect(nameOrPath, dir);
      if (info !== null) return { ok: true, value: info.file };
      return {
        ok: false,
        error: [{ path: '', code: 'dialect.unknown', message: `unknown dialect "${nameOrPath}" (known: ${known() || 'none'}; or give the path of a .json file)` }],
      };
    },
    read(file) {
      try {
        return { ok: true, value: readFileSync(file, 'utf8') };
      } catch (e) {
        return { ok: false, error: { path: '', code: 'dialect.read', message: `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, file } };
      }
    },
    // A sibling `NAME.json`, a shipped dialect, or a path relative to the child.
    parent(file, ext) {
      if (looksLikePath(ext)) {
        const parentFile = resolve(dirname(file), ext);
        if (existsSync(parentFile)) return { ok: true, value: parentFile };
        return { ok: false, error: { path: 'extends', code: 'dialect.extends', message: `parent file "${ext}" does not exist (${parentFile})`, file } };
      }
      const sibling = join(dirname(file), `${ext}.json`);
      if (existsSync(sibling) && resolve(sibling) !== resolve(file)) return { ok: true, value: sibling };
      const found = findDialect(ext, dir)?.file;
      if (found !== undefined) return { ok: true, value: found };
      return {
        ok: false,
        error: { path: 'extends', code: 'dialect.extends', message: `parent "${ext}" is not a known dialect (known: ${known()}; or a path like ./base.json)`, file },
      };
    },
  };
}
