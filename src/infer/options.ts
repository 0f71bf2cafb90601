import type { z } from 'zod';
import { type Dialect, LEAF_PATHS, listDialects, loadDialect } from '../dialects/index.js';
import { LEAF_SCHEMAS } from '../dialects/schema.js';
import { opportunityKind } from './opportunities/turn-tests.js';

/** One option to infer: its path, the base dialect's value, and the candidate values (the base value among them). */
export interface OptionPlan {
  path: string;
  baseValue: unknown;
  /** Candidate values in a stable order (schema order; for open domains: null, then ascending). */
  values: unknown[];
  /** Candidates the schema allows but the base dialect cannot take (a cross-field check fails), with why. */
  excluded: Array<{ value: unknown; reason: string }>;
}

/** An option path problem, as a value: the CLI turns it into one usage line. */
export interface OptionProblem {
  code: 'infer.unknown-option' | 'infer.bad-value' | 'infer.no-candidates' | 'infer.open-domain';
  message: string;
}

type Def = { type: string; entries?: Record<string, unknown>; values?: unknown[]; innerType?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The `--set` text of one value (strings bare, everything else as JSON), as `parseOverride` reads it back. */
export const valueText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
export const overrideOf = (path: string, value: unknown): string => `${path}=${valueText(value)}`;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Every value the schema allows for an option, when that set is finite (enums,
 * literals, booleans; a nullable one adds null); null for open domains (numbers,
 * strings, arrays), whose candidates come from the dialects instead.
 */
export function schemaValues(schema: z.ZodType): unknown[] | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'enum':
      return Object.values(def.entries ?? {});
    case 'literal':
      return [...(def.values ?? [])];
    case 'boolean':
      return [false, true];
    case 'nullable': {
      const inner = def.innerType ? schemaValues(def.innerType) : null;
      return inner === null ? null : [null, ...inner];
    }
    default:
      return null;
  }
}

/** Is null a value of this option? */
const nullable = (schema: z.ZodType): boolean => defOf(schema).type === 'nullable';

/** The value every shipped dialect (that loads) has at `path`. */
function dialectValues(path: string): unknown[] {
  const out: unknown[] = [];
  for (const info of listDialects()) {
    const d = loadDialect(info.file);
    if (!d.ok) continue;
    const v = valueAt(d.value.rules, path);
    if (!out.some((o) => same(o, v))) out.push(v);
  }
  return out;
}

export function valueAt(rules: unknown, path: string): unknown {
  let cur: unknown = rules;
  for (const part of path.split('.')) cur = (cur as Record<string, unknown>)[part];
  return cur;
}

/** Ascending, null first; numbers by value, the rest by their JSON text. */
function openOrder(a: unknown, b: unknown): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : 1;
}

/**
 * The options inferred when none are named: every option the base dialect marks `open`,
 * plus `maximum` and `enPassant.window` (docs/rules.md §9 names both as disputed between
 * sources), and `maximumCounts` where it can matter (a maximum, castling on two dice: the
 * engines that count the maximum in moves differ there). Only options whose opportunities are
 * counted: the others (`opportunityKind` none) are judged when named with --option, and say
 * there that their opportunities are not counted.
 */
export function defaultOptionPaths(base: Dialect): string[] {
  const open = LEAF_PATHS.filter((p) => base.sources[p]?.open === true);
  const r = base.rules;
  const counts = r.maximum !== 'none' && r.castling.dice === 'king-and-rook';
  return LEAF_PATHS.filter((p) => (open.includes(p) || p === 'maximum' || p === 'enPassant.window' || (p === 'maximumCounts' && counts)) && opportunityKind(p) !== 'none');
}

/**
 * The plan for one `--option` argument: `PATH` (every candidate) or `PATH=v1,v2` (only
 * those). Candidates that the base dialect (with the user's `--set`) cannot take are
 * excluded with the loader's reason, so every value judged is a dialect that loads.
 */
export function planOption(arg: string, base: Dialect, baseOverrides: readonly string[]): { ok: true; value: OptionPlan } | { ok: false; error: OptionProblem } {
  const eq = arg.indexOf('=');
  const path = (eq < 0 ? arg : arg.slice(0, eq)).trim();
  const schema = LEAF_SCHEMAS.get(path)?.();
  if (!schema) return { ok: false, error: { code: 'infer.unknown-option', message: `--option ${arg}: "${path}" is not a dialect option (see dice-dialects dialects --compare)` } };
  const baseValue = valueAt(base.rules, path);
  let wanted: unknown[];
  if (eq >= 0) {
    wanted = [];
    for (const raw of arg.slice(eq + 1).split(',')) {
      const text = raw.trim();
      if (text === '') continue;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        v = text;
      }
      const parsed = schema.safeParse(v);
      if (!parsed.success) return { ok: false, error: { code: 'infer.bad-value', message: `--option ${arg}: ${text} is not a value of ${path} (${parsed.error.issues[0]?.message ?? 'invalid'})` } };
      if (!wanted.some((w) => same(w, v))) wanted.push(v);
    }
    // The base value is always judged: it is what the verdict compares against.
    if (!wanted.some((w) => same(w, baseValue))) wanted.push(baseValue);
  } else {
    const finite = schemaValues(schema);
    if (finite !== null) wanted = finite;
    else {
      // Open domains: the values the dialects use (and null where the schema allows it).
      wanted = dialectValues(path);
      if (nullable(schema) && !wanted.includes(null)) wanted.push(null);
      if (!wanted.some((w) => same(w, baseValue))) wanted.push(baseValue);
      wanted.sort(openOrder);
    }
  }
  const values: unknown[] = [];
  const excluded: OptionPlan['excluded'] = [];
  for (const v of wanted) {
    if (same(v, baseValue)) {
      values.push(v);
      continue;
    }
    const loaded = loadDialect(base.file, [...baseOverrides, overrideOf(path, v)]);
    if (loaded.ok) values.push(v);
    else excluded.push({ value: v, reason: loaded.error.map((p) => p.message).join('; ') });
  }
  if (values.length < 2) {
    const why = excluded.length ? ` (${excluded.map((e) => `${valueText(e.value)}: ${e.reason}`).join('; ')})` : '';
    return { ok: false, error: { code: 'infer.no-candidates', message: `--option ${arg}: only ${valueText(baseValue)} can be judged under ${base.name}, nothing to infer${why}` } };
  }
  return { ok: true, value: { path, baseValue, values, excluded } };
}
