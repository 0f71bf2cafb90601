/** What the registry knows about a dialect without resolving it. */
export interface DialectInfo {
  name: string;
  title: string;
  aliases: string[];
  description: string;
  extends: string | null;
  /** The file's absolute path; for a dialect given as an object, `<object NAME>`. */
  file: string;
}

/** Does this look like a file path rather than a dialect name? */
export function looksLikePath(text: string): boolean {
  return text.endsWith('.json') || text.includes('/') || text.includes('\\');
}

/** The dialect a name or alias (any case) stands for among `all`, or null: names first, then aliases. */
export function matchDialect<T extends { name: string; aliases: readonly string[] }>(all: readonly T[], nameOrAlias: string): T | null {
  const key = nameOrAlias.trim().toLowerCase();
  return all.find((d) => d.name === key) ?? all.find((d) => d.aliases.some((a) => a.toLowerCase() === key)) ?? null;
}

/** A definition's metadata as the registry lists it, read leniently (loading validates). */
export function infoOf(data: unknown, fallbackName: string, file: string): DialectInfo {
  const rec = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const str = (v: unknown, d: string): string => (typeof v === 'string' ? v : d);
  const name = str(rec.name, fallbackName);
  return {
    name,
    title: str(rec.title, name),
    aliases: Array.isArray(rec.aliases) ? rec.aliases.filter((a): a is string => typeof a === 'string') : [],
    description: str(rec.description, ''),
    extends: typeof rec.extends === 'string' ? rec.extends : null,
    file,
  };
}
