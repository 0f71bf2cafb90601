import { boardSvg } from '../explore/page/board-svg.js';
import { facesChart, matrixChart, ratesChart } from './charts-svg.js';
import { cellText, classKindText, dialectCountText, divergenceClasses, sourceLabel, type DivergenceClass } from './classes.js';
import { CLIP_CHARS, clip, escapeHtml } from './escape.js';
import { FACE_LABELS, durationText, faceVerdict, findingsPastCap, fixed, moreFindingsText, pct, pValue, ratio } from './format.js';
import { allowedText, explorerLink, movesFromDfen, NO_CHECK } from './repro.js';
import { isGood, runVerdict, VERDICT_WORDS } from './run-verdict.js';
import type { RenderOptions } from './render-md.js';
import type { Example, Rate, Summary } from './summary-schema.js';

/**
 * report.html: one self-contained page with the content of report.md plus pictures.
 * No script and no external URL; a Content-Security-Policy forbids both, so even a
 * record string that slipped past escaping could neither run nor phone home.
 */

const CSS = `
body{font-family:system-ui,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222;line-height:1.4}
h1{margin-bottom:4px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:36px}h3{margin-top:28px}
table{border-collapse:collapse;margin:10px 0;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:"DejaVu Sans Mono",monospace;font-size:13px;background:#f5f5f5;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f5f5f5;padding:8px 12px;border-radius:4px;white-space:pre-wrap;word-break:break-all}
.banner{padding:10px 14px;border-radius:6px;font-weight:600;margin:14px 0}
.bad{background:#fde2e1;border:1px solid #d62728}.good{background:#e3f5e1;border:1px solid #2ca02c}
.charts{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
.example{display:flex;flex-wrap:wrap;gap:20px;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
.example .facts{flex:1;min-width:320px}
.legend span{display:inline-block;margin-right:14px}.swatch{display:inline-block;width:22px;height:5px;vertical-align:middle;margin-right:4px}
.muted{color:#666;font-size:13px}
`;

export function renderHtml(summary: Summary, opts: RenderOptions): string {
  const classes = divergenceClasses(summary, opts.kinds);
  const body = [
    '<h1>Dice Chess replay report</h1>',
    banner(summary),
    totals(summary),
    notes(summary),
    summary.matrix ? matrix(summary) : '',
    classesTable(summary, classes),
    dice(summary),
    '<h2>Reproductions</h2>',
    '<p class="legend"><span><i class="swatch" style="background:#d62728"></i>recorded moves (numbered in order)</span><span><i class="swatch" style="background:#2ca02c"></i>moves the dialect allows (solid: first micro-move, dashed: later)</span></p>',
    classes.length === 0 ? `<p>${summary.totals.lines === 0 ? 'Nothing was checked' : 'Every record conforms under every dialect'}: nothing to reproduce.</p>` : classes.map((c) => classSection(summary, c, opts)).join('\n'),
    runInfo(summary),
  ].join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Dice Chess replay report</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Every text shown goes through here: escaped, and cut when very long (a 300,000-character id is data, not something to read). */
const h = (text: string): string => escapeHtml(clip(text));
const code = (text: string) => `<code>${h(text)}</code>`;
const num = (text: string | number) => `<td class="num">${h(String(text))}</td>`;

function table(head: string[], rows: string[][], numericFrom = 1): string {
  const th = head.map((x) => `<th>${x}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c, i) => (i >= numericFrom && !c.startsWith('<') ? num(c) : `<td>${c}</td>`)).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${tr}\n</tbody>\n</table>`;
}

function banner(s: Summary): string {
  const t = s.totals;
  const verdict = runVerdict(t);
  const { head, tail } = VERDICT_WORDS[verdict];
  const per = s.dialects.map((d) => `${code(d)}: ${s.byDialect[d].conforming} conforming, ${s.byDialect[d].diverging} diverging, ${s.byDialect[d].unreadable} unreadable${s.byDialect[d].faulty ? `, ${s.byDialect[d].faulty} faulty` : ''}`).join('; ');
  return `<div class="banner ${isGood(verdict) ? 'good' : 'bad'}">${h(head + tail)} ${t.lines} results over ${s.dialects.length} dialect(s). ${per}.</div>`;
}

function totals(s: Summary): string {
  // The faulty column (recording faults that hide the play) only where there are any.
  const f = s.totals.faulty > 0;
  const rows = s.dialects.map((d) => {
    const c = s.byDialect[d];
    return [code(d), String(c.lines), ratio(c.conforming, c.lines), ratio(c.diverging, c.lines), ratio(c.unreadable, c.lines), ...(f ? [ratio(c.faulty, c.lines)] : []), String(c.findings)];
  });
  const t = s.totals;
  rows.push(['<strong>all</strong>', String(t.lines), String(t.conforming), String(t.diverging), String(t.unreadable), ...(f ? [String(t.faulty)] : []), String(t.findings)]);
  return `<h2>Totals</h2>\n${table(['dialect', 'records', 'conforming', 'diverging', 'unreadable', ...(f ? ['faulty'] : []), 'findings'], rows)}${recordingFaults(s)}`;
}

/** Recording faults the readers repaired or read as site conventions: counted apart, never divergences. */
function recordingFaults(s: Summary): string {
  const entries = Object.entries(s.recordingFaults);
  if (entries.length === 0) return '';
  const rows = entries.map(([c, e]) => [code(c), h(e.handling), String(e.records), Object.entries(e.bySource).map(([src, n]) => `${code(src || '(no source)')} ${n}`).join(', ')]);
  return `\n<h2>Recording faults repaired</h2>\n<p class="muted">Faults of the records whose intent is certain, repaired by the readers (normalised), site conventions read as metadata, and text whose bytes were not UTF-8, read with U+FFFD in their place (replaced: an id or a name may differ from the site's): counted once per record, never as a divergence.</p>\n${table(['code', 'handling', 'records', 'corpora'], rows, 2)}`;
}

function notes(s: Summary): string {
  if (s.notes.length === 0) return '';
  const items = s.notes.map((n) => `<li>${code(n.code)} ${h(n.message)}</li>`).join('\n');
  return `<h2>Notes on the sources</h2>\n<p class="muted">Inputs that held no records: passed over as plainly not records, empty, or folder links not followed again.</p>\n<ul>\n${items}\n</ul>`;
}

function matrix(s: Summary): string {
  const m = s.matrix!;
  const rows = m.sources.map((src, i) => [
    code(sourceLabel(src)),
    ...m.cells[i].map((c) => cellText(c, ratio)),
  ]);
  return `<h2>Conformance matrix (corpus × dialect)</h2>
<p class="muted">Conforming records of each corpus under each dialect; diverging (✗) and unreadable (?) counts follow.</p>
${table(['corpus', ...m.dialects.map(code)], rows)}
<div class="charts">${matrixChart(m)}</div>`;
}

function classesTable(s: Summary, classes: DivergenceClass[]): string {
  const intro = '<h2>Divergence classes</h2>\n<p class="muted">A record\'s class is the rule of its first finding; "findings" counts every finding.</p>';
  if (classes.length === 0) return `${intro}\n<p>None.</p>`;
  const rows = classes.map((c) => [code(c.rule), h(c.kind), ...s.dialects.map((d) => String(c.counts.byDialect[d]?.games ?? 0)), String(c.counts.games), String(c.counts.findings)]);
  const more = findingsPastCap(s);
  return `${intro}\n${table(['rule', 'kind', ...s.dialects.map(code), 'records', 'findings'], rows, 2)}${more > 0 ? `\n<p class="more-findings">${h(moreFindingsText(more))}</p>` : ''}`;
}

function rateRow(label: string, r: Rate, unit: string): string[] {
  return [h(label), `${pct(r.rate)} (${r.count}/${r.of} ${unit})`, pct(r.expected), h(r.basis)];
}

function dice(s: Summary): string {
  const d = s.dice;
  const f = d.faces;
  const rates = [
    rateRow('forced passes', d.pass, 'turns'),
    rateRow('forced passes on opening rolls', d.openingPass, 'opening turns'),
    rateRow('doubles (any two dice equal)', d.doubles, 'turns'),
    ...Object.entries(d.doubles.byDiceCount).map(([n, r]) => rateRow(`doubles with ${n} dice`, r, 'turns')),
  ];
  const faces = [
    ['observed', ...f.counts.map(String)],
    ['share', ...f.counts.map((c) => pct(f.total > 0 ? c / f.total : null))],
    ['expected', ...f.counts.map(() => fixed(f.expectedEach, 1))],
  ];
  return `<h2>Dice statistics of the corpus</h2>
<p class="muted">Counted once per recorded turn (${d.turns} turns), not once per dialect. Opening roll: the first turn of each side in each game.</p>
${table(['measure', 'observed', 'expected', 'basis'], rates.map((r) => [r[0], r[1], r[2], `<span>${r[3]}</span>`]))}
${table(['face', ...FACE_LABELS.map(h)], faces)}
<p>Chi-square against uniform faces: ${h(fixed(f.chiSquare, 3))} with ${f.df} degrees of freedom, p = ${h(pValue(f.pValue))}: <strong>${h(faceVerdict(f.pValue, f.expectedEach))}</strong>.${f.invalid > 0 ? ` ${f.invalid} recorded dice were outside 1–6 and are left out of the test.` : ''}</p>
<div class="charts">${facesChart(d)}${ratesChart(d)}</div>`;
}

function classSection(s: Summary, c: DivergenceClass, opts: RenderOptions): string {
  const per = s.dialects.filter((d) => c.counts.byDialect[d]).map((d) => `${code(d)} ${dialectCountText(c.counts.byDialect[d])}`).join(', ');
  return `<section class="class">
<h3>${code(c.rule)}: ${c.counts.games > 0 ? `${c.counts.games} record(s), ${c.counts.findings} finding(s)` : `${c.counts.findings} finding(s), each after an earlier divergence of its game`}</h3>
<p>${classKindText(c.kind)} by dialect: ${per}.</p>
${c.examples.map((e) => example(e, opts.explorer ? explorerLink(opts.explorer, s, e.dialect, e.finding) : null)).join('\n')}
</section>`;
}

function example(e: Example, explorer: string | null): string {
  const f = e.finding;
  const facts: string[] = [];
  const where = [e.source !== null ? `corpus ${code(e.source)}` : null, `record #${e.index}`, f.location !== null ? `at ${code(f.location)}` : null].filter((x) => x !== null).join(', ');
  facts.push(`<li>Where: ${where}${e.first ? '' : ' (not the game’s first finding)'}</li>`);
  if (f.turn !== null) facts.push(`<li>Turn ${f.turn}${f.microMove !== null ? `, micro-move ${f.microMove}` : ''}</li>`);
  if (f.dfen !== null) facts.push(`<li>DFEN: ${code(f.dfen)}</li>`);
  if (f.dice !== null) facts.push(`<li>Dice: ${code(f.dice)}</li>`);
  // An empty recording is a pass only inside a turn; a game-level finding simply has nothing recorded.
  if (f.recorded.length) facts.push(`<li>Recorded: ${code(f.recorded.join(' '))}</li>`);
  else if (f.turn !== null) facts.push('<li>Recorded: (pass)</li>');
  const { shown, more } = allowedText(f.allowed);
  // allowed = [] means the replayer listed no alternatives (game-level findings have none to list).
  if (f.allowed.length > 0) facts.push(`<li>Allowed: ${shown.map(code).join(', ')}${more ? `, and ${more} more` : ''}</li>`);
  else if (f.dfen !== null) facts.push('<li>Allowed: none listed</li>');
  facts.push(`<li>Message: ${h(f.message)}</li>`);
  if (explorer) facts.push(`<li><a class="explore" href="${h(explorer)}">Open in the explorer</a>: every dialect on this position and roll</li>`);
  const cmd = e.reproduce ?? null;
  if (!cmd && e.reproduce === null && f.dfen !== null) facts.push(`<li>${h(NO_CHECK)}</li>`);
  const board = f.dfen !== null ? boardSvg(f.dfen, { recorded: movesFromDfen(f), allowed: f.allowed }) : '';
  return `<div class="example">
${board}
<div class="facts">
<h4>Under ${code(e.dialect)}: game ${code(e.id)}</h4>
<ul>${facts.join('')}</ul>
${cmd ? `<pre>${escapeHtml(clip(cmd, 4 * CLIP_CHARS))}</pre>` : ''}
</div>
</div>`;
}

function runInfo(s: Summary): string {
  const r = s.run_info;
  const rows: string[][] = [
    ['tool', `${code(r.tool)} ${code(r.version)}`],
    ['node', code(r.node)],
    ['started', code(r.startedAt)],
    ['duration', h(durationText(r.durationMs))],
    ['options', code(JSON.stringify(r.options))],
    ...Object.entries(r.dialects).map(([d, info]) => [`dialect ${code(d)}`, `${code(info.file)} sha256 ${code(info.sha256)}`]),
    ...r.sources.map((src) => [`source ${code(src.source)}`, src.sha256 ? `sha256 ${code(src.sha256)}` : 'not hashed (stream)']),
  ];
  return `<h2>Run info</h2>\n<p class="muted">Machine facts and timestamps live only here.</p>\n${table(['field', 'value'], rows, 99)}`;
}
