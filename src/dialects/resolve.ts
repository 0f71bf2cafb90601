import type { z } from 'zod';
import type { Result } from '../core/errors.js';
import { sha256 } from '../dice/sha256.js';
import type { Rules } from '../rules/rules.js';
import type { DialectInfo } from './names.js';
import { AXES, AXIS_KEYS, type DialectFile, dialectFileSchema, LEAF_PATHS, META_SHAPE, resolvedAxesSchema, type SourcedValue, stripSources } from './schema.js';

/** One thing wrong with a dialect definition, at a JSON path like `castling.dice.value`. */
export interface DialectProblem {
  /** Dotted JSON path inside the file ('' = the whole file). */
  path: string;
  /** Machine-readable: dialect.unknown, dialect.read, dialect.json, dialect.unknown-key, dialect.missing, dialect.invalid, dialect.inconsistent, dialect.extends, dialect.parent, dialect.cycle, dialect.override. */
  code: string;
  message: string;
  /** The file the problem was found in, when there is one. */
  file?: string;
}

/** A value as resolved, with where it came from. */
export interface ResolvedSource extends SourcedValue {
  /** The dialect whose file set it (an ancestor when inherited), or "override" for --set. */
  from: string;
}

/** A resolved dialect: the registry's facts (name, title, aliases, description, the parent as written, the file's absolute path), plus what loading adds. */
export interface Dialect extends DialectInfo {
  /** SHA-256 (hex) over the bytes of every file in the `extends` chain (this one first) and the overrides: changes whenever the effective definition does. */
  sha256: string;
  rules: Rules;
  /** Every option path (`castling.dice`, …) → its value, source, note. */
  sources: Record<string, ResolvedSource>;
}

/**
 * Where dialect definitions come from: files (load.ts) or objects in memory
 * (load-object.ts). The loader itself knows no files, so it runs in a browser.
 */
export interface DialectStore {
  /** The entry a name, alias or path stands for (a file path, or a key of the store), or dialect.unknown. */
  locate(nameOrPath: string): Result<string, DialectProblem[]>;
  /** The definition's text (its bytes are what the hash covers), or dialect.read. */
  read(entry: string): Result<string, DialectProblem>;
  /** The entry a child's `extends` names, or dialect.extends. */
  parent(child: string, ext: string): Result<string, DialectProblem>;
}

interface ParsedFile {
  file: string;
  text: string;
  data: DialectFile;
}

type Leaf = { value: unknown; source: string; note?: string; open?: boolean };
type Tree = { [key: string]: Tree | Leaf };

const problem = (path: string, code: string, message: string, file?: string): DialectProblem =>
  file === undefined ? { path, code, message } : { path, code, message, file };

/**
 * Loads, merges and validates a dialect from a store by name, alias or path, then
 * applies `--set path=value` overrides. Every way a dialect is read ends here (files,
 * objects, the checker), so a definition the checker accepts is one the tools load.
 */
export function loadFromStore(nameOrPath: string, overrides: readonly string[], store: DialectStore): Result<Dialect, DialectProblem[]> {
  const located = store.locate(nameOrPath);
  if (!located.ok) return located;
  const file = located.value;

  const chain = loadChain(file, [], store);
  if (!chain.ok) return chain;
  const files = chain.value;
  const self = files[files.length - 1];

  const tree: Tree = {};
  const from = new Map<string, string>();
  for (const f of files) mergeAxes(tree, axesOf(f.data), '', f.data.name, from);

  const overridden = new Map<string, string>();
  const overrideProblems: DialectProblem[] = [];
  for (const text of overrides) {
    const parsed = parseOverride(text);
    if (!parsed.ok) {
      overrideProblems.push(parsed.error);
      continue;
    }
    const { path, value } = parsed.value;
    const old = getAt(tree, path) as Leaf | undefined;
    const leaf: Leaf = { value, source: 'override' };
    if (old !== undefined) leaf.note = `set on the command line; the file says ${JSON.stringify(old.value)} (${old.source})`;
    setAt(tree, path, leaf);
    from.set(path, 'override');
    overridden.set(path, text);
  }
  if (overrideProblems.length > 0) return fail(overrideProblems);

  const checked = resolvedAxesSchema().safeParse(tree, ONCE);
  if (!checked.success) {
    const problems = issuesToProblems(checked.error.issues, tree, self.file);
    for (const p of problems) {
      const leafPath = p.path.replace(/\.(value|source|note|open)$/, '');
      const text = overridden.get(leafPath);
      if (text !== undefined) {
        p.code = 'dialect.override';
        p.message = `--set ${text}: ${p.message}`;
      }
    }
    return fail(problems);
  }

  const sources: Record<string, ResolvedSource> = {};
  for (const path of LEAF_PATHS) {
    const leaf = getAt(tree, path) as Leaf;
    const entry: ResolvedSource = { value: leaf.value, source: leaf.source, from: from.get(path) ?? self.data.name };
    if (leaf.note !== undefined) entry.note = leaf.note;
    if (leaf.open !== undefined) entry.open = leaf.open;
    sources[path] = entry;
  }
  const hashed = [...[...files].reverse().map((f) => f.text), ...overrides].map((t) => `${t}\0`).join('');

  const d = self.data;
  return {
    ok: true,
    value: {
      name: d.name,
      title: d.title ?? d.name,
      aliases: d.aliases ?? [],
      description: d.description ?? '',
      extends: d.extends ?? null,
      file: self.file,
      sha256: hex(sha256(new TextEncoder().encode(hashed))),
      rules: stripSources(checked.data) as Rules,
      sources,
    },
  };
}

/**
 * A dialect file is parsed a few times a run: zod's compiled fast path (code generated per
 * object schema, ~25 ms for these) costs more to build than it saves. Same result, same messages.
 */
const ONCE = { jitless: true } as const;

const fail = (problems: DialectProblem[]): Result<never, DialectProblem[]> => ({ ok: false, error: problems });
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Reads one file and its ancestors: the root ancestor first, this file last. */
function loadChain(file: string, stack: string[], store: DialectStore): Result<ParsedFile[], DialectProblem[]> {
  const read = store.read(file);
  if (!read.ok) return fail([read.error]);
  const text = read.value;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return fail([problem('', 'dialect.json', `not JSON: ${(e as Error).message}`, file)]);
  }
  const parsed = dialectFileSchema().safeParse(json, ONCE);
  const rawExt = json !== null && typeof json === 'object' ? (json as Record<string, unknown>).extends : undefined;
  const parent = typeof rawExt === 'string' && rawExt !== '' ? store.parent(file, rawExt) : null;
  if (!parsed.success) {
    const problems = issuesToProblems(parsed.error.issues, json, file);
    if (parent !== null && !parent.ok) problems.push(parent.error);
    return fail(problems);
  }
  const data = parsed.data;
  const me: ParsedFile = { file, text, data };
  const ext = data.extends;
  if (ext === undefined || ext === null || parent === null) return { ok: true, value: [me] };
  if (!parent.ok) return fail([parent.error]);
  const parentFile = parent.value;
  const seen = [...stack, file];
  if (seen.includes(parentFile)) {
    const cycle = [...seen.slice(seen.indexOf(parentFile)), parentFile].map((f) => f.split(/[\\/]/).pop()).join(' → ');
    return fail([problem('extends', 'dialect.cycle', `extends cycle: ${cycle}`, file)]);
  }
  const chain = loadChain(parentFile, seen, store);
  if (!chain.ok) {
    return fail(
      chain.error.map((p) =>
        p.code === 'dialect.cycle'
          ? problem('extends', 'dialect.cycle', p.message, file)
          : problem('extends', 'dialect.parent', `parent "${ext}" (${p.file ?? parentFile}) is invalid${p.path ? ` at ${p.path}` : ''}: ${p.message}`, file),
      ),
    );
  }
  return { ok: true, value: [...chain.value, me] };
}

function axesOf(data: DialectFile): Tree {
  const out: Tree = {};
  const rec = data as unknown as Record<string, unknown>;
  for (const k of AXIS_KEYS) if (rec[k] !== undefined) out[k] = rec[k] as Tree;
  return out;
}

const isLeaf = (v: unknown): v is Leaf => v !== null && typeof v === 'object' && 'value' in (v as object);

/** Leaf-by-leaf merge: a leaf in `add` replaces the whole leaf (value, source, note) in `into`. */
function mergeAxes(into: Tree, add: Tree, prefix: string, name: string, from: Map<string, string>): void {
  for (const [k, v] of Object.entries(add)) {
    const path = prefix + k;
    if (isLeaf(v)) {
      into[k] = { ...v };
      from.set(path, name);
    } else {
      const cur = into[k];
      const target: Tree = cur !== undefined && !isLeaf(cur) ? cur : {};
      into[k] = target;
      mergeAxes(target, v, `${path}.`, name, from);
    }
  }
}

function getAt(tree: unknown, path: string): unknown {
  let cur: unknown = tree;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function setAt(tree: Tree, path: string, leaf: Leaf): void {
  const parts = path.split('.');
  let cur: Tree = tree;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === undefined || isLeaf(next)) cur[part] = {};
    cur = cur[part] as Tree;
  }
  cur[parts[parts.length - 1]] = leaf;
}

/** `enPassant.window=first-micro-move` → path and value (JSON when it parses, else the string). */
export function parseOverride(text: string): Result<{ path: string; value: unknown }, DialectProblem> {
  const eq = text.indexOf('=');
  if (eq <= 0) {
    return { ok: false, error: problem(text, 'dialect.override', `--set "${text}": expected path=value, like enPassant.window=first-micro-move`) };
  }
  const raw = text.slice(0, eq).trim();
  const path = raw.replace(/\.value$/, '');
  if (!LEAF_PATHS.includes(path)) {
    const hint = suggest(path, LEAF_PATHS);
    return {
      ok: false,
      error: problem(raw, 'dialect.override', `--set ${text}: "${raw}" is not a dialect option${hint ? ` (did you mean ${hint}?)` : ''}`),
    };
  }
  const rawValue = text.slice(eq + 1).trim();
  let value: unknown;
  try {
    value = JSON.parse(rawValue);
  } catch {
    value = rawValue;
  }
  return { ok: true, value: { path, value } };
}

/** The keys allowed at a path of a dialect file, for "did you mean". */
function keysAt(path: readonly PropertyKey[]): string[] {
  // A leaf: an axis's (a function building its schema) or a metadata key's (a schema).
  const isLeaf = (s: unknown): boolean => typeof s === 'function' || (s !== null && typeof s === 'object' && typeof (s as { safeParse?: unknown }).safeParse === 'function');
  let spec: unknown = { ...META_SHAPE(), ...AXES };
  for (const part of path) {
    if (isLeaf(spec)) return ['value', 'source', 'note', 'open'];
    if (spec === null || typeof spec !== 'object') return [];
    spec = (spec as Record<string, unknown>)[String(part)];
  }
  if (isLeaf(spec)) return path.length === 0 ? [] : ['value', 'source', 'note', 'open'];
  return spec !== null && typeof spec === 'object' ? Object.keys(spec) : [];
}

function issuesToProblems(issues: readonly z.core.$ZodIssue[], data: unknown, file: string): DialectProblem[] {
  const out: DialectProblem[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      const allowed = keysAt(issue.path);
      for (const key of issue.keys) {
        const hint = suggest(key, allowed);
        out.push(problem([...base, key].join('.'), 'dialect.unknown-key', `unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}`, file));
      }
      continue;
    }
    const path = base.join('.');
    const actual = getAt(data, path);
    if (issue.code === 'invalid_type' && actual === undefined) {
      const what = base[base.length - 1] === 'value' || base[base.length - 1] === 'source' ? `"${base[base.length - 1]}"` : `"${path}"`;
      out.push(problem(path, 'dialect.missing', `${what} is missing${base.length > 1 || AXIS_KEYS.includes(path) ? ' (state it here or inherit it with "extends")' : ''}`, file));
      continue;
    }
    if (issue.code === 'custom' && issue.path.length > 0 && issue.path[issue.path.length - 1] === 'value' && isCrossCheck(issue)) {
      out.push(problem(path, 'dialect.inconsistent', issue.message, file));
      continue;
    }
    const got = actual === undefined ? '' : ` (got ${JSON.stringify(actual)})`;
    out.push(problem(path, 'dialect.invalid', `${issue.message}${got}`, file));
  }
  return out;
}

/** Cross-field issues are raised on the root schema, so their path reaches a leaf's value from outside the leaf. */
function isCrossCheck(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.path.length >= 2;
}

/** The closest candidate by edit distance (or by last path segment), if close enough. */
function suggest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.endsWith(`.${word}`) ? 0 : editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(word.length / 4)) ? best : null;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
