import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  const dir = options.dir ?? DIALECTS_DIR;
  const store = fileStore(dir);
  const cached = overrides.length === 0 && dir === DIALECTS_DIR ? shippedAsBuilt(nameOrPath, store) : undefined;
  return cached ?? loadFromStore(nameOrPath, overrides, store);
}

/**
 * The name of the folder beside the bundles that holds the shipped dialects as the build loaded
 * them, one file each, named as the dialect's file (scripts/build-bundles.mjs defines it in the
 * bundles only: the compiled files and the sources always load the files).
 */
declare const __SHIPPED_DIALECTS__: string | undefined;

/** A shipped dialect as the build loaded it: the texts of its `extends` chain (the file first) and the result without its path. */
export interface ShippedDialect {
  texts: string[];
  dialect: string;
}

/** The build's entry for a shipped dialect file (its base name), read alone: a run reads the one or two it judges, not all. */
function shippedEntry(name: string): ShippedDialect | undefined {
  if (typeof __SHIPPED_DIALECTS__ !== 'string') return undefined;
  try {
    return JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), __SHIPPED_DIALECTS__, name), 'utf8')) as ShippedDialect;
  } catch {
    return undefined; // a build without it: the dialect is loaded from its files
  }
}

/**
 * A shipped dialect, without overrides, whose files are byte for byte the ones the build
 * loaded: the build's result (the same object `loadFromStore` gives, held equal by a test),
 * without building and running the schema (the larger part of a short run's start). Anything
 * else, or a file edited since, is loaded as always (undefined here).
 */
function shippedAsBuilt(nameOrPath: string, store: DialectStore): Result<Dialect, DialectProblem[]> | undefined {
  if (typeof __SHIPPED_DIALECTS__ !== 'string') return undefined;
  const located = store.locate(nameOrPath);
  if (!located.ok || dirname(located.value) !== DIALECTS_DIR) return undefined;
  const entry = shippedEntry(basename(located.value));
  const texts = entry && chainTexts(located.value, store);
  if (!entry || !texts || texts.length !== entry.texts.length || texts.some((t, i) => t !== entry.texts[i])) return undefined;
  return { ok: true, value: { ...(JSON.parse(entry.dialect) as Omit<Dialect, 'file'>), file: located.value } };
}

/** The texts of a file's `extends` chain, the file first (null: anything amiss, left to the loader to word). */
function chainTexts(file: string, store: DialectStore): string[] | null {
  const texts: string[] = [];
  const seen = new Set<string>();
  for (let f = file; ; ) {
    if (seen.has(f)) return null;
    seen.add(f);
    const read = store.read(f);
    if (!read.ok) return null;
    texts.push(read.value);
    let ext: unknown;
    try {
      ext = (JSON.parse(read.value) as { extends?: unknown } | null)?.extends;
    } catch {
      return null;
    }
    if (typeof ext !== 'string' || ext === '') return texts;
    const parent = store.parent(f, ext);
    if (!parent.ok) return null;
    f = parent.value;
  }
}

/** Every shipped dialect loaded from its files, as `shippedAsBuilt` takes them (the build writes them beside the bundles). */
export function shippedDialects(): Record<string, ShippedDialect> {
  const store = fileStore(DIALECTS_DIR);
  const out: Record<string, ShippedDialect> = {};
  for (const info of listDialects(DIALECTS_DIR)) {
    const loaded = loadFromStore(info.file, [], store);
    const texts = chainTexts(info.file, store);
    if (!loaded.ok || texts === null) continue;
    const { file: _file, ...dialect } = loaded.value;
    out[basename(info.file)] = { texts, dialect: JSON.stringify(dialect) };
  }
  return out;
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
