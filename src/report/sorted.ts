/**
 * Key ordering for deterministic output: two runs over the same input must give the
 * same bytes, whatever order the counters happened to be created in.
 */

/** A plain object with keys in code-unit order (locale-independent, unlike localeCompare). */
export function sortedRecord<V>(map: Map<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of [...map.keys()].sort(compareStrings)) out[key] = map.get(key)!;
  return out;
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with object keys sorted at every level, two-space indent, final newline. */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortDeep(value), null, 2)}\n`;
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareStrings)) out[key] = sortDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
