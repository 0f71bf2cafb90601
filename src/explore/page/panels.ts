import type { Dialect, DialectProblem } from '../../dialects/resolve.js';
import { loadDialectObject } from '../../dialects/load-object.js';
import { infoOf } from '../../dialects/names.js';

/**
 * The explorer's columns: every known dialect, every dropped dialect file, and every
 * variant typed in the options box, each loaded from an object (no files: the page runs
 * in a browser). The box holds one item a line: `path=value` applies to every column,
 * `name+path=value+…` adds a column (as in the conformance cases).
 */

export interface Panel {
  /** The `data-dialect` of its element: the dialect's name, or the variant line. */
  key: string;
  title: string;
  dialect: Dialect | null;
  /** Why it could not be loaded (the options or the dropped file are wrong). */
  problem: string | null;
}

export interface OptionLines {
  global: string[];
  variants: Array<{ line: string; name: string; overrides: string[] }>;
  /** Lines that are neither. */
  bad: string[];
}

export function parseOptionLines(text: string): OptionLines {
  const out: OptionLines = { global: [], variants: [], bad: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^--set\s+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const plus = line.indexOf('+');
    const eq = line.indexOf('=');
    if (plus > 0 && (eq < 0 || plus < eq)) {
      const [name, ...overrides] = line.split('+');
      out.variants.push({ line, name: name.trim(), overrides: overrides.map((o) => o.trim()).filter(Boolean) });
    } else if (eq > 0) out.global.push(line);
    else out.bad.push(line);
  }
  return out;
}

const problemText = (problems: DialectProblem[]): string => problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message} [${p.code}]`).join('; ');

/** The columns for the known definitions (sorted by name), the dropped ones, then the variants. */
export function buildPanels(known: readonly unknown[], dropped: readonly unknown[], options: OptionLines): Panel[] {
  const all = [...known, ...dropped];
  const panels: Panel[] = [];
  const load = (key: string, title: string, def: unknown, overrides: string[]): Panel => {
    const r = loadDialectObject(def, overrides, { known: all });
    return r.ok ? { key, title: r.value.title, dialect: r.value, problem: null } : { key, title, dialect: null, problem: problemText(r.error) };
  };
  const infos = known.map((d, i) => ({ def: d, info: infoOf(d, `dialect-${i}`, '') })).sort((a, b) => (a.info.name < b.info.name ? -1 : a.info.name > b.info.name ? 1 : 0));
  for (const { info } of infos) panels.push(load(info.name, info.title, info.name, options.global));
  dropped.forEach((def, i) => {
    const info = infoOf(def, `dropped-${i + 1}`, '');
    const key = panels.some((p) => p.key === info.name) ? `${info.name} (dropped ${i + 1})` : info.name;
    panels.push(load(key, info.title, def, options.global));
  });
  for (const v of options.variants) panels.push(load(v.line, v.line, v.name, [...options.global, ...v.overrides]));
  return panels;
}
