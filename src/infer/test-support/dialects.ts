import type { Role } from '../../core/index.js';
import { loadDialect, type Dialect } from '../../dialects/index.js';

/** A shipped dialect with `--set` overrides, for the brute-force cases; a bad name or value fails the test. */
export function dialectOf(name: string, sets: string[]): Dialect {
  const d = loadDialect(name, sets);
  if (!d.ok) throw new Error(`${name} ${sets.join(' ')}: ${d.error[0].message}`);
  return d.value;
}

/** Every roll of `count` dice as a multiset (the order does not change what is legal). */
export function rollMultisets(count: number, from = 1): Role[][] {
  if (count === 0) return [[]];
  const out: Role[][] = [];
  for (let a = from; a <= 6; a++) for (const rest of rollMultisets(count - 1, a)) out.push([a as Role, ...rest]);
  return out;
}
