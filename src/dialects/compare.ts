import type { Rules } from '../rules/rules.js';
import type { Dialect, ResolvedSource } from './load.js';
import { LEAF_PATHS } from './schema.js';

/** Ways a game can end under a dialect, derived from its rules (a record naming another is a divergence). */
export type Termination =
  | 'king-capture'
  | 'checkmate'
  | 'resignation'
  | 'timeout'
  | 'draw-agreement'
  | 'double-declined'
  | 'move-counter'
  | 'turn-limit'
  | 'repetition'
  | 'stalemate'
  | 'insufficient-material'
  | 'no-move';

/** The terminations a dialect allows, in a fixed order. Derived, never stated, so it cannot contradict the rules. */
export function terminationsOf(r: Rules): Termination[] {
  const out: Termination[] = [];
  if (r.end.kingCapture) out.push('king-capture');
  if (r.end.checkmate) out.push('checkmate');
  if (r.end.resignation) out.push('resignation');
  out.push('timeout');
  if (r.draws.agreement) out.push('draw-agreement');
  if (r.cube.enabled) out.push('double-declined');
  if (r.draws.moveCounterLimit !== null) out.push('move-counter');
  if (r.draws.turnLimit !== null) out.push('turn-limit');
  if (r.draws.repetition !== null) out.push('repetition');
  if (r.draws.stalemate) out.push('stalemate');
  if (r.draws.insufficientMaterial !== 'none') out.push('insufficient-material');
  if (r.pass.whenNothingMoves !== 'pass') out.push('no-move');
  return out;
}

export interface ComparisonCell extends ResolvedSource {}

export interface Comparison {
  dialects: Array<{ name: string; title: string; extends: string | null; file: string; sha256: string }>;
  /** One row per axis (and the derived `end.terminations`), one cell per dialect, keyed by dialect name. */
  rows: Array<{ path: string; derived?: boolean; cells: Record<string, ComparisonCell> }>;
}

/** The side-by-side table of every axis × every dialect, straight from the resolved files. */
export function compareDialects(dialects: readonly Dialect[]): Comparison {
  const rows: Comparison['rows'] = LEAF_PATHS.map((path) => ({
    path,
    cells: Object.fromEntries(dialects.map((d) => [d.name, d.sources[path]])),
  }));
  rows.push({
    path: 'end.terminations',
    derived: true,
    cells: Object.fromEntries(
      dialects.map((d) => [d.name, { value: terminationsOf(d.rules), source: 'derived', from: d.name, note: 'derived from end.*, draws.*, cube.enabled and pass.*' }]),
    ),
  });
  return {
    dialects: dialects.map((d) => ({ name: d.name, title: d.title, extends: d.extends, file: d.file, sha256: d.sha256 })),
    rows,
  };
}

const formatValue = (v: unknown): string => {
  if (v === null) return 'null'; // As --set spells it: 'none' is a value of its own for several options.
  if (Array.isArray(v)) return v.length === 0 ? '[]' : v.join(', ');
  return String(v);
};

/** A short label for a source: `rules §2.3` for a docs section, a URL's host, `assumed`. */
export function shortSource(source: string): string {
  const doc = /^docs\/(?:[\w.-]+\/)*([\w.-]+)\.md (§.+)$/.exec(source);
  if (doc) return `${doc[1]} ${doc[2]}`;
  const url = /^https?:\/\/(?:www\.)?([^/]+)/.exec(source);
  if (url) return url[1];
  return source;
}

const escapeCell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The comparison as a Markdown table; notes are numbered footnotes under it, open points are marked. */
export function comparisonMarkdown(c: Comparison): string {
  const names = c.dialects.map((d) => d.name);
  const notes: string[] = [];
  const noteNumber = new Map<string, number>();
  const urls = new Set<string>();
  const lines: string[] = [];
  lines.push('# Dialects compared');
  lines.push('');
  lines.push('Generated from the dialect files by `dice-dialects dialects --compare`. Each cell: value, then its source ');
  lines.push('(`rules §N` = a section of docs/rules.md, a URL host, or `assumed`). **open** marks a point no source settles: the value is the ');
  lines.push('documented default. `↑` marks a value inherited from the parent dialect. [n] refers to the notes below.');
  lines.push('');
  lines.push(`| axis | ${names.map((n) => `\`${n}\``).join(' | ')} |`);
  lines.push(`| --- | ${names.map(() => '---').join(' | ')} |`);
  for (const row of c.rows) {
    const cells = names.map((name) => {
      const cell = row.cells[name];
      if (cell === undefined) return '';
      if (cell.source !== shortSource(cell.source)) urls.add(cell.source);
      let s = `\`${formatValue(cell.value)}\` · ${shortSource(cell.source)}`;
      if (cell.open) s += ' **open**';
      if (!row.derived && cell.from !== name && cell.from !== 'override') s += ' ↑';
      if (cell.note && !row.derived) {
        // An inherited note is the parent's: number it once.
        const key = `${row.path}\0${cell.note}`;
        let n = noteNumber.get(key);
        if (n === undefined) {
          notes.push(`${row.path} (${cell.from}): ${cell.note}`);
          n = notes.length;
          noteNumber.set(key, n);
        }
        s += ` [${n}]`;
      }
      return escapeCell(s);
    });
    lines.push(`| ${row.path}${row.derived ? ' (derived)' : ''} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push('## Notes');
  lines.push('');
  notes.forEach((n, i) => lines.push(`${i + 1}. ${escapeCell(n)}`));
  lines.push('');
  lines.push('## Sources');
  lines.push('');
  for (const u of [...urls].sort()) lines.push(`- ${shortSource(u)}: ${/^https?:/.test(u) ? `<${u}>` : `[${u}](../${u.replace(/ §.*$/, '')})`}`);
  lines.push('');
  lines.push('## Files');
  lines.push('');
  for (const d of c.dialects) lines.push(`- \`${d.name}\`: ${d.title}${d.extends ? ` (extends \`${d.extends}\`)` : ''}, sha256 \`${d.sha256.slice(0, 16)}\``);
  lines.push('');
  return lines.join('\n');
}
