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

/** A line of the options box: its number (1-based, as an editor counts) and its text. */
export interface OptionLine {
  line: number;
  text: string;
}

export interface OptionLines {
  global: OptionLine[];
  variants: Array<OptionLine & { name: string; overrides: string[] }>;
  /** Lines not applied, and why. */
  bad: Array<OptionLine & { reason: string }>;
}

/** A file dropped on the page (or picked): its parsed JSON, or why it has none. */
export type DroppedFile = { file: string; definition: unknown } | { file: string; problem: string };

export function parseOptionLines(text: string): OptionLines {
  const out: OptionLines = { global: [], variants: [], bad: [] };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim().replace(/^--set\s+/, '');
    if (line === '' || line.startsWith('#')) return;
    const at = { line: i + 1, text: line };
    const plus = line.indexOf('+');
    const eq = line.indexOf('=');
    if (plus > 0 && (eq < 0 || plus < eq)) {
      const [name, ...overrides] = line.split('+');
      out.variants.push({ ...at, name: name.trim(), overrides: overrides.map((o) => o.trim()).filter(Boolean) });
    } else if (eq > 0) out.global.push(at);
    else out.bad.push({ ...at, reason: 'not an option line: write path=value, or name+path=value for a column of its own' });
  });
  return out;
}

const problemText = (problems: DialectProblem[]): string => problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message} [${p.code}]`).join('; ');

/**
 * Takes out of `global` each line that no known dialect accepts (an option that does not
 * exist, a value no dialect can have), so one mistyped line marks itself instead of every
 * column. A line only some dialects refuse stays: those columns say why.
 */
export function checkOptionLines(known: readonly unknown[], options: OptionLines): OptionLines {
  const names = known.map((d, i) => infoOf(d, `dialect-${i}`, '').name).filter((name) => loadDialectObject(name, [], { known }).ok);
  const global: OptionLine[] = [];
  const bad = [...options.bad];
  for (const line of options.global) {
    let first: DialectProblem[] | null = null;
    for (const name of names) {
      const r = loadDialectObject(name, [line.text], { known });
      if (r.ok) {
        first = null;
        break;
      }
      first ??= r.error;
    }
    if (first === null) global.push(line);
    else bad.push({ ...line, reason: problemText(first.map((p) => ({ ...p, message: p.message.replace(`--set ${line.text}: `, '') }))) });
  }
  bad.sort((a, b) => a.line - b.line);
  return { ...options, global, bad };
}

/** Why a dropped file's JSON is no dialect file at all (the loader would take a string for a dialect's name). */
function notAnObject(def: unknown): string | null {
  if (def !== null && typeof def === 'object' && !Array.isArray(def)) return null;
  const what = def === null ? 'null' : Array.isArray(def) ? 'an array' : `a ${typeof def}`;
  return `the file holds ${what}, not a JSON object: a dialect file is one object with "name", "extends" and its options [dialect.invalid]`;
}

/** The columns for the known definitions (sorted by name), the dropped files, then the variants. */
export function buildPanels(known: readonly unknown[], dropped: readonly DroppedFile[], options: OptionLines): Panel[] {
  const definitions = dropped.flatMap((d) => ('definition' in d && notAnObject(d.definition) === null ? [d.definition] : []));
  const all = [...known, ...definitions];
  const global = options.global.map((l) => l.text);
  const panels: Panel[] = [];
  const load = (key: string, title: string, def: unknown, overrides: string[]): Panel => {
    const r = loadDialectObject(def, overrides, { known: all });
    return r.ok ? { key, title: r.value.title, dialect: r.value, problem: null } : { key, title, dialect: null, problem: problemText(r.error) };
  };
  const infos = known.map((d, i) => ({ def: d, info: infoOf(d, `dialect-${i}`, '') })).sort((a, b) => (a.info.name < b.info.name ? -1 : a.info.name > b.info.name ? 1 : 0));
  for (const { info } of infos) panels.push(load(info.name, info.title, info.name, global));
  dropped.forEach((d, i) => {
    // A file without a usable name is its column by its file name.
    const info = infoOf('definition' in d ? d.definition : null, d.file, '');
    const key = panels.some((p) => p.key === info.name) ? `${info.name} (dropped ${i + 1})` : info.name;
    const problem = 'problem' in d ? d.problem : notAnObject(d.definition);
    panels.push(problem !== null || !('definition' in d) ? { key, title: info.title, dialect: null, problem } : load(key, info.title, d.definition, global));
  });
  for (const v of options.variants) panels.push(load(v.text, v.text, v.name, [...global, ...v.overrides]));
  return panels;
}
