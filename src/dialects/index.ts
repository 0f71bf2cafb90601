/**
 * Dialects as data: JSON files in `dialects/`, validated by one zod schema, merged
 * through `extends`, overridable with `--set path=value`, resolved into `Rules`.
 */
export { DIALECTS_DIR, packageRoot } from './paths.js';
export { type DialectInfo, clearRegistryCache, findDialect, listDialects, registryProblems } from './registry.js';
export { type Dialect, type DialectProblem, type DialectStore, type ResolvedSource, loadFromStore, parseOverride } from './resolve.js';
export { type LoadOptions, checkDialectFile, loadDialect } from './load.js';
export { type ObjectLoadOptions, loadDialectObject } from './load-object.js';
export { AXES, LEAF_PATHS, dialectFileSchema, resolvedAxesSchema, type SourcedValue, isSource } from './schema.js';
export { needs960, perftOptions } from './perft.js';
export { type Comparison, type Termination, compareDialects, comparisonMarkdown, shortSource, terminationsOf } from './compare.js';

import type { DialectProblem } from './load.js';

/** One line per problem: `file: path: message [code]`. */
export function formatProblem(p: DialectProblem): string {
  return `${p.file ? `${p.file}: ` : ''}${p.path || '(file)'}: ${p.message} [${p.code}]`;
}
