import { divergenceClasses, sourceLabel, type DivergenceClass } from './classes.js';
import { escapeMarkdown as esc, mdCode, mdFence } from './escape.js';
import { FACE_LABELS, durationText, faceVerdict, fixed, pct, pValue, ratio } from './format.js';
import { allowedText, checkCommand, explorerLink, movesFromDfen } from './repro.js';
import type { Example, Rate, Summary } from './summary-schema.js';

/**
 * report.md: the summary as tables, then every divergence class with one reproduction
 * per dialect, written to be pasted into a rules issue. Machine facts stay in the
 * "Run info" block at the end so two reports of the same input differ only there.
 */
export function renderMarkdown(summary: Summary, opts: RenderOptions = {}): string {
  const out: string[] = ['# Dice Chess replay report', ''];
  out.push(headline(summary), '');
  out.push(...totalsTable(summary), '');
  if (summary.matrix) out.push(...matrixTable(summary), '');
  const classes = divergenceClasses(summary);
  out.push(...classesTable(summary, classes), '');
  out.push(...diceSection(summary), '');
  out.push('## Reproductions', '');
  if (classes.length === 0) out.push('Every record conforms under every dialect: nothing to reproduce.', '');
  for (const c of classes) out.push(...classSection(summary, c, opts));
  out.push(...runInfoSection(summary));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function headline(s: Summary): string {
  const t = s.totals;
  const parts = s.dialects.map((d) => {
    const c = s.byDialect[d];
    return `${mdCode(d)}: ${c.conforming} conforming, ${c.diverging} diverging, ${c.unreadable} unreadable`;
  });
  const flag = t.diverging + t.unreadable > 0 ? '**Divergences found.**' : '**Every record conforms.**';
  return `${flag} ${t.lines} results over ${s.dialects.length} dialect(s). ${parts.join('; ')}.`;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function totalsTable(s: Summary): string[] {
  const lines = ['## Totals', '', row(['dialect', 'records', 'conforming', 'diverging', 'unreadable', 'findings']), row(['---', '---:', '---:', '---:', '---:', '---:'])];
  for (const d of s.dialects) {
    const c = s.byDialect[d];
    lines.push(row([mdCode(d, true), String(c.lines), ratio(c.conforming, c.lines), ratio(c.diverging, c.lines), ratio(c.unreadable, c.lines), String(c.findings)]));
  }
  const t = s.totals;
  lines.push(row(['**all**', String(t.lines), String(t.conforming), String(t.diverging), String(t.unreadable), String(t.findings)]));
  return lines;
}

function matrixTable(s: Summary): string[] {
  const m = s.matrix!;
  const lines = ['## Conformance matrix (corpus × dialect)', '', 'Conforming records of each corpus under each dialect; diverging (✗) and unreadable (?) counts follow.', ''];
  lines.push(row(['corpus', ...m.dialects.map((d) => mdCode(d, true))]), row(['---', ...m.dialects.map(() => '---:')]));
  m.sources.forEach((src, i) => {
    const cells = m.cells[i].map((c) => {
      const n = c.conforming + c.diverging + c.unreadable;
      return n === 0 ? '—' : `${ratio(c.conforming, n)}${c.diverging ? ` ✗${c.diverging}` : ''}${c.unreadable ? ` ?${c.unreadable}` : ''}`;
    });
    lines.push(row([mdCode(sourceLabel(src), true), ...cells]));
  });
  return lines;
}

function classesTable(s: Summary, classes: DivergenceClass[]): string[] {
  const lines = ['## Divergence classes', '', 'A record\'s class is the rule of its first finding; "findings" counts every finding (continued replays report more than one).', ''];
  if (classes.length === 0) return [...lines, 'None.'];
  lines.push(row(['rule', 'kind', ...s.dialects.map((d) => mdCode(d, true)), 'records', 'findings']), row(['---', '---', ...s.dialects.map(() => '---:'), '---:', '---:']));
  for (const c of classes) {
    const per = s.dialects.map((d) => String(c.counts.byDialect[d]?.games ?? 0));
    lines.push(row([mdCode(c.rule, true), c.kind, ...per, String(c.counts.games), String(c.counts.findings)]));
  }
  return lines;
}

function rateRow(label: string, r: Rate, unit: string): string {
  return row([label, `${pct(r.rate)} (${r.count}/${r.of} ${unit})`, pct(r.expected), esc(r.basis)]);
}

function diceSection(s: Summary): string[] {
  const d = s.dice;
  const lines = ['## Dice statistics of the corpus', '', `Counted once per recorded turn (${d.turns} turns), not once per dialect.`, ''];
  lines.push(row(['measure', 'observed', 'expected', 'basis']), row(['---', '---:', '---:', '---']));
  lines.push(rateRow('forced passes', d.pass, 'turns'));
  lines.push(rateRow('forced passes on opening rolls', d.openingPass, 'opening turns'));
  lines.push(rateRow('doubles (any two dice equal)', d.doubles, 'turns'));
  for (const [n, r] of Object.entries(d.doubles.byDiceCount)) lines.push(rateRow(`doubles with ${n} dice`, r, 'turns'));
  lines.push('', 'Opening roll: the first turn of each side in each game.', '');
  const f = d.faces;
  lines.push(row(['face', ...FACE_LABELS]), row(['---', ...FACE_LABELS.map(() => '---:')]));
  lines.push(row(['observed', ...f.counts.map(String)]));
  lines.push(row(['share', ...f.counts.map((c) => pct(f.total > 0 ? c / f.total : null))]));
  lines.push(row(['expected', ...f.counts.map(() => fixed(f.expectedEach, 1))]));
  lines.push('', `Chi-square against uniform faces: ${fixed(f.chiSquare, 3)} with ${f.df} degrees of freedom, p = ${pValue(f.pValue)}: ${faceVerdict(f.pValue, f.expectedEach)}.`);
  if (f.invalid > 0) lines.push(`${f.invalid} recorded dice were outside 1–6 and are left out of the test.`);
  return lines;
}

/** `explorer`: the explorer page beside the report (a relative link), when the run folder has one. */
export interface RenderOptions {
  explorer?: string | null;
}

function classSection(s: Summary, c: DivergenceClass, opts: RenderOptions): string[] {
  const lines = [`### ${mdCode(c.rule)}: ${c.counts.games} record(s), ${c.counts.findings} finding(s)`, ''];
  const per = s.dialects.filter((d) => c.counts.byDialect[d]).map((d) => `${mdCode(d)} ${c.counts.byDialect[d].games}`);
  lines.push(`${c.kind === 'unreadable' ? 'Unreadable records' : 'Rule divergence'} by dialect: ${per.join(', ')}.`, '');
  for (const e of c.examples) lines.push(...exampleBlock(e, opts.explorer ? explorerLink(opts.explorer, s, e.dialect, e.finding) : null), '');
  return lines;
}

function exampleBlock(e: Example, explorer: string | null): string[] {
  const f = e.finding;
  const where = [e.source !== null ? `corpus ${mdCode(e.source)}` : null, `record #${e.index}`, f.location !== null ? `at ${mdCode(f.location)}` : null]
    .filter((x) => x !== null)
    .join(', ');
  const lines = [`#### Under ${mdCode(e.dialect)}: game ${mdCode(e.id)}`, '', `- Where: ${where}${e.first ? '' : ' (not the game\'s first finding)'}`];
  if (f.turn !== null) lines.push(`- Turn ${f.turn}${f.microMove !== null ? `, micro-move ${f.microMove}` : ''}`);
  if (f.dfen !== null) lines.push(`- DFEN: ${mdCode(f.dfen)}`);
  if (f.dice !== null) lines.push(`- Dice: ${mdCode(f.dice)}`);
  // An empty recording is a pass only inside a turn; a game-level finding simply has nothing recorded.
  if (f.recorded.length) lines.push(`- Recorded: ${mdCode(f.recorded.join(' '))}`);
  else if (f.turn !== null) lines.push('- Recorded: (pass)');
  if (f.dfen !== null && f.microMove) lines.push(`- Still to play from this DFEN: ${mdCode(movesFromDfen(f).join(' ') || '(pass)')}`);
  const { shown, more } = allowedText(f.allowed);
  // allowed = [] means the replayer listed no alternatives (game-level findings have none to list).
  if (f.allowed.length > 0) lines.push(`- Allowed: ${shown.map((x) => mdCode(x)).join(', ')}${more ? `, and ${more} more` : ''}`);
  else if (f.dfen !== null) lines.push('- Allowed: none listed');
  lines.push(`- Message: ${esc(f.message)}`);
  if (explorer) lines.push(`- [Open in the explorer](<${explorer.replace(/[<>]/g, encodeURIComponent)}>): every dialect on this position and roll`);
  const cmd = checkCommand(e.dialect, f);
  if (cmd) lines.push('', mdFence(cmd, 'sh'));
  return lines;
}

function runInfoSection(s: Summary): string[] {
  const r = s.run_info;
  const lines = ['## Run info', '', 'Machine facts and timestamps live only here.', ''];
  lines.push(row(['field', 'value']), row(['---', '---']));
  lines.push(row(['tool', `${mdCode(r.tool, true)} ${mdCode(r.version, true)}`]));
  lines.push(row(['node', mdCode(r.node, true)]));
  lines.push(row(['started', mdCode(r.startedAt, true)]));
  lines.push(row(['duration', durationText(r.durationMs)]));
  lines.push(row(['options', mdCode(JSON.stringify(r.options), true)]));
  for (const [d, info] of Object.entries(r.dialects)) lines.push(row([`dialect ${mdCode(d, true)}`, `${mdCode(info.file, true)} sha256 ${mdCode(info.sha256, true)}`]));
  for (const src of r.sources) lines.push(row([`source ${mdCode(src.source, true)}`, src.sha256 ? `sha256 ${mdCode(src.sha256, true)}` : 'not hashed (stream)']));
  return lines;
}
