import { cellText, classKindText, dialectCountText, divergenceClasses, type RuleKinds, sourceLabel, type DivergenceClass } from './classes.js';
import { CLIP_CHARS, clip, escapeMarkdown, mdCode as mdCodeWhole, mdFence } from './escape.js';

/** Every text shown goes through these: escaped, and cut when very long (data files keep the whole value). */
const esc = (text: string): string => escapeMarkdown(clip(text));
const mdCode = (text: string, inTable = false): string => mdCodeWhole(clip(text), inTable);
import { FACE_LABELS, durationText, faceVerdict, findingsPastCap, fixed, moreFindingsText, pct, pValue, ratio } from './format.js';
import { allowedText, explorerLink, movesFromDfen, NO_CHECK } from './repro.js';
import { runVerdict, VERDICT_WORDS } from './run-verdict.js';
import type { Example, Rate, Summary } from './summary-schema.js';

/**
 * report.md: the summary as tables, then every divergence class with one reproduction
 * per dialect, written to be pasted into a rules issue. Machine facts stay in the
 * "Run info" block at the end so two reports of the same input differ only there.
 */
export function renderMarkdown(summary: Summary, opts: RenderOptions): string {
  const out: string[] = ['# Dice Chess replay report', ''];
  out.push(headline(summary), '');
  out.push(...totalsTable(summary), '');
  if (summary.notes.length > 0) out.push(...notesSection(summary), '');
  if (summary.matrix) out.push(...matrixTable(summary), '');
  const classes = divergenceClasses(summary, opts.kinds);
  out.push(...classesTable(summary, classes), '');
  if (Object.keys(summary.recordingFaults).length > 0) out.push(...faultsSection(summary), '');
  out.push(...diceSection(summary), '');
  out.push('## Reproductions', '');
  if (classes.length === 0) out.push(summary.totals.lines === 0 ? 'Nothing was checked: nothing to reproduce.' : 'Every record conforms under every dialect: nothing to reproduce.', '');
  for (const c of classes) out.push(...classSection(summary, c, opts));
  out.push(...runInfoSection(summary));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function headline(s: Summary): string {
  const t = s.totals;
  const parts = s.dialects.map((d) => {
    const c = s.byDialect[d];
    return `${mdCode(d)}: ${c.conforming} conforming, ${c.diverging} diverging, ${c.unreadable} unreadable${c.faulty ? `, ${c.faulty} faulty` : ''}`;
  });
  const { head, tail } = VERDICT_WORDS[runVerdict(t)];
  const flag = `**${head}**${tail}`;
  return `${flag} ${t.lines} results over ${s.dialects.length} dialect(s). ${parts.join('; ')}.`;
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function totalsTable(s: Summary): string[] {
  // The faulty column (recording faults that hide the play) only where there are any.
  const f = s.totals.faulty > 0;
  const lines = ['## Totals', '', row(['dialect', 'records', 'conforming', 'diverging', 'unreadable', ...(f ? ['faulty'] : []), 'findings']), row(['---', '---:', '---:', '---:', '---:', ...(f ? ['---:'] : []), '---:'])];
  for (const d of s.dialects) {
    const c = s.byDialect[d];
    lines.push(row([mdCode(d, true), String(c.lines), ratio(c.conforming, c.lines), ratio(c.diverging, c.lines), ratio(c.unreadable, c.lines), ...(f ? [ratio(c.faulty, c.lines)] : []), String(c.findings)]));
  }
  const t = s.totals;
  lines.push(row(['**all**', String(t.lines), String(t.conforming), String(t.diverging), String(t.unreadable), ...(f ? [String(t.faulty)] : []), String(t.findings)]));
  return lines;
}

/** Recording faults the readers repaired or read as site conventions: counted apart, never divergences. */
function faultsSection(s: Summary): string[] {
  const lines = ['## Recording faults repaired', '', 'Faults of the records whose intent is certain, repaired by the readers (normalised), site conventions read as metadata, and text whose bytes were not UTF-8, read with U+FFFD in their place (replaced: an id or a name may differ from the site\'s): counted once per record, never as a divergence (docs/recording-faults.md).', ''];
  lines.push(row(['code', 'handling', 'records', 'corpora']), row(['---', '---', '---:', '---']));
  for (const [code, e] of Object.entries(s.recordingFaults)) {
    lines.push(row([mdCode(code, true), e.handling, String(e.records), Object.entries(e.bySource).map(([src, n]) => `${mdCode(src || '(no source)', true)} ${n}`).join(', ')]));
  }
  return lines;
}

function matrixTable(s: Summary): string[] {
  const m = s.matrix!;
  const faulty = s.totals.faulty > 0 ? ' and faulty (⚠: a recording fault)' : '';
  const lines = ['## Conformance matrix (corpus × dialect)', '', `Conforming records of each corpus under each dialect; diverging (✗)${faulty ? ',' : ' and'} unreadable (?)${faulty} counts follow.`, ''];
  lines.push(row(['corpus', ...m.dialects.map((d) => mdCode(d, true))]), row(['---', ...m.dialects.map(() => '---:')]));
  m.sources.forEach((src, i) => {
    const cells = m.cells[i].map((c) => cellText(c, ratio));
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
  const more = findingsPastCap(s);
  if (more > 0) lines.push('', moreFindingsText(more));
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
  /** The kind of each rule id (the run tells it). */
  kinds: RuleKinds;
  explorer?: string | null;
}

function classSection(s: Summary, c: DivergenceClass, opts: RenderOptions): string[] {
  const counts = c.counts.games > 0 ? `${c.counts.games} record(s), ${c.counts.findings} finding(s)` : `${c.counts.findings} finding(s), each after an earlier divergence of its game`;
  const lines = [`### ${mdCode(c.rule)}: ${counts}`, ''];
  const per = s.dialects.filter((d) => c.counts.byDialect[d]).map((d) => `${mdCode(d)} ${dialectCountText(c.counts.byDialect[d])}`);
  lines.push(`${classKindText(c.kind)} by dialect: ${per.join(', ')}.`, '');
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
  const cmd = e.reproduce ?? null;
  if (cmd) lines.push('', mdFence(clip(cmd, 4 * CLIP_CHARS), 'sh'));
  else if (e.reproduce === null && f.dfen !== null) lines.push(`- ${NO_CHECK}`);
  return lines;
}

function notesSection(s: Summary): string[] {
  const lines = ['## Notes on the sources', '', 'Inputs that held no records: passed over as plainly not records, empty, or folder links not followed again.', ''];
  for (const n of s.notes) lines.push(`- ${mdCode(n.code, true)} ${esc(n.message)}`);
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
