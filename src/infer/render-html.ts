import { boardSvg } from '../explore/page/board-svg.js';
import { escapeHtml as h } from '../report/escape.js';
import type { ExampleDoc, InferDocument, OptionDoc } from './document.js';
import { evidenceChart } from './evidence-chart.js';
import { basisWords, type EvidenceDoc } from './evidence-doc.js';
import { notCountedWhy } from './opportunities/turn-tests.js';
import { valueText } from './options.js';
import { notJudgeable } from './verdict-phrase.js';

const CSS = `
body{font-family:system-ui,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222;line-height:1.4}
h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:36px}
table{border-collapse:collapse;margin:10px 0;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:"DejaVu Sans Mono",monospace;font-size:13px;background:#f5f5f5;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f5f5f5;padding:8px 12px;border-radius:4px;white-space:pre-wrap;word-break:break-all}
.verdict{padding:10px 14px;border-radius:6px;margin:12px 0}
.supported{background:#e3f5e1;border:1px solid #2ca02c}.contradicted{background:#fde2e1;border:1px solid #d62728}.undecided{background:#f3f3f3;border:1px solid #999}
.example{display:flex;flex-wrap:wrap;gap:20px;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
.example .facts{flex:1;min-width:320px}.muted{color:#666;font-size:13px}
`;

const fmt = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));
const code = (t: string): string => `<code>${h(t)}</code>`;
const val = (v: unknown): string => code(valueText(v));
/** Backticks in the verdict sentences become code elements (the sentence is escaped first). */
const prose = (t: string): string => h(t).replace(/`([^`]*)`/g, '<code>$1</code>');

/** report.html: report.md's content on one self-contained page (no script, no external URL), with a board per decisive game. */
export function renderInferHtml(doc: InferDocument): string {
  const c = doc.confirmation;
  const body = [
    `<h1>Inferred rules: ${h(doc.base)} over ${fmt(doc.games)} games</h1>`,
    doc.bestDialect
      ? `<p class="verdict supported"><strong>Best-fitting named dialect: ${code(doc.bestDialect.name)}</strong>, ${fmt(doc.bestDialect.conforming)} of ${fmt(doc.games)} games conform${doc.bestDialect.tiedWith.length ? `; as many under ${doc.bestDialect.tiedWith.map(code).join(', ')}` : ''}.</p>`
      : '<p class="verdict undecided">No named dialect fits any game of this corpus.</p>',
    table(['dialect', 'conforming games'], doc.dialects.map((d) => [code(d.name), num(d.conforming)])),
    table(['option', 'base value', 'inferred', 'verdict', 'favoured', 'strongest evidence (log10 LR)'], doc.options.map((o) => [code(o.path), val(o.baseValue), o.inferred !== null ? val(o.inferred) : `—${o.consistent.length ? ` (consistent: ${o.consistent.map(val).join(', ')})` : ''}`, h((notJudgeable(o) !== null ? 'not judgeable' : o.verdict) + (o.mixed ? ', mixed' : '')), o.favoured.map(val).join(', ') || '—', strongest(o)])),
    `<p><strong>Confirmation:</strong> ${c.judged ? `with every inferred value at once (${c.set.map((s) => code(`--set ${s}`)).join(' ')}), ${fmt(c.conforming)} games conform` : `${h(c.note)}; ${fmt(c.conforming)} games conform`}; under the base dialect: ${fmt(c.baseConforming)}.</p>`,
    `<p class="muted">${fmt(doc.games)} games judged, ${fmt(doc.unreadable)} unreadable records; corpus sha256 ${code(doc.corpus.sha256)}.</p>`,
    `<details><summary>Method</summary><p>${h(doc.method)}</p><p>Evidence by absence: ${code(doc.evidenceModel.formula)}, at p = ${h(String(doc.takeRate))} (--take-rate); a value is disfavoured at ${h(String(doc.evidenceThreshold))} or more (--evidence). ${h(doc.evidenceModel.assumption)} ${h(doc.evidenceModel.independence)}</p><p>${h(doc.evidenceModel.diceModel)}</p></details>`,
    ...doc.options.map((o) => optionSection(doc, o)),
  ].join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${h(`infer ${doc.base}`)}</title><style>${CSS}</style></head>
<body>
${body}
</body></html>
`;
}

const num = (n: number | null): { num: string } => ({ num: fmt(n) });

function table(head: string[], rows: Array<Array<string | { num: string }>>): string {
  const cell = (c: string | { num: string }): string => (typeof c === 'string' ? `<td>${c}</td>` : `<td class="num">${c.num}</td>`);
  return `<table><thead><tr>${head.map((x) => `<th>${x}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>`;
}

function optionSection(doc: InferDocument, o: OptionDoc): string {
  const rivals = o.values.map((v) => valueText(v.value));
  const parts = [
    `<h2 id="${h(o.path)}">${code(o.path)}</h2>`,
    `<p class="verdict ${o.verdict}">${prose(o.sentence)}</p>`,
    `<p class="verdict ${o.evidence.length ? 'contradicted' : 'undecided'} evidence"><strong>With evidence by absence</strong> (${h(basisWords(o.evidenceBasis, doc.takeRate))}): ${prose(o.favouredSentence)}</p>`,
    evidenceChart(o, doc.games, doc.evidenceThreshold),
  ];
  if (o.pairs.length) parts.push(table(['looser value', 'stricter rival', o.evidenceBasis === 'dice-model' ? 'opportunities (rolls)' : 'opportunities (turns)', 'games with one', 'log10 LR', o.evidenceBasis === 'dice-model' ? "each game's strongest roll" : 'at most one per game'], o.pairs.map((p) => [val(p.value), val(p.rival), num(p.opportunities), num(p.games), { num: p.log10LR.toFixed(2) }, { num: p.log10LRPerGame.toFixed(2) }])));
  for (const ev of o.evidence) if (ev.example) parts.push(evidenceExampleHtml(ev));
  if (o.groups) {
    parts.push(`<p>Verdicts per ${o.groups.by === 'month' ? 'month' : 'corpus file'}:</p>`);
    parts.push(table(['group', 'games', 'inferred', 'favoured'], o.groups.groups.map((g) => [code(g.group), num(g.games), g.inferred === null ? 'undecided' : val(g.inferred), g.favoured.map(val).join(', ') || '—'])));
    for (const c of o.groups.changes) parts.push(`<p>From ${code(c.month)}: favoured ${c.to.map(val).join(', ')} (before: ${c.from.map(val).join(', ')}).</p>`);
  }
  parts.push(
    table(
      ['value', 'conforming', 'diverging', 'decisive', 'opportunities', ...rivals.map((r) => `vs ${code(r)}`), 'first rules of diverging games'],
      o.values.map((v) => [
        val(v.value) + (valueText(v.value) === valueText(o.baseValue) ? ' (base)' : ''),
        num(v.conforming),
        num(v.diverging),
        num(v.decisive),
        num(v.opportunities.total),
        ...rivals.map((r) => (r === valueText(v.value) || v.opportunities.total === null ? '—' : num(v.opportunities.byRival[r] ?? 0))),
        Object.entries(v.rules).slice(0, 3).map(([k, n]) => `${code(k)} ${fmt(n)}`).join(', ') || '—',
      ]),
    ),
  );
  if (o.opportunitiesCounted === 'none') parts.push(`<p class="muted">Opportunities are not counted for this option (${h(notCountedWhy(o.path))}).</p>`);
  const corpora = [...new Set(o.values.flatMap((v) => v.byCorpus.map((b) => b.corpus)))];
  if (corpora.length > 1) {
    parts.push('<p>Counts per corpus (conforming / decisive):</p>');
    parts.push(table(['corpus', ...o.values.map((v) => val(v.value))], corpora.map((corpus) => [code(corpus), ...o.values.map((v) => { const b = v.byCorpus.find((x) => x.corpus === corpus); return b ? `${fmt(b.conforming)} / ${fmt(b.decisive)}` : '—'; })])));
  }
  const decisive = o.values.filter((v) => v.decisiveGames.length > 0);
  if (decisive.length === 0) parts.push('<p>No decisive game: no game conforms under one value alone.</p>');
  for (const v of decisive) {
    parts.push(`<h3>Games that conform only under ${code(v.set)} (${fmt(v.decisive)})</h3>`);
    for (const ex of v.decisiveGames) parts.push(exampleHtml(o, ex));
  }
  for (const v of o.values) if (v.example?.kind === 'diverging') parts.push(`<h3>First divergence under ${code(v.set)}</h3>`, exampleHtml(o, v.example));
  return parts.join('\n');
}

function strongest(o: OptionDoc): string {
  if (o.opportunitiesCounted === 'none') return 'not counted';
  const top = o.pairs[0];
  return top ? `${top.log10LR.toFixed(1)} (${val(top.value)} vs ${val(top.rival)})` : '—';
}

function evidenceExampleHtml(ev: EvidenceDoc): string {
  const ex = ev.example!;
  const board = ex.kind === 'outcome' ? '' : boardSvg(ex.dfen, { recorded: ex.recorded, allowed: [] });
  const cmds = [ex.check && `${ex.check}   # legal`, ex.strictCheck && `${ex.strictCheck}   # refused`].filter(Boolean) as string[];
  return `<div class="example">${board}<div class="facts">
<p>${val(ev.value)} disfavoured against ${val(ev.rival)}: game ${code(ex.id)}${ex.location ? ` (${code(ex.location)})` : ''}, turn ${ex.turn}: ${val(ev.value)} also allowed ${h(ex.allowed)}; recorded ${code(ex.recorded.join(' ') || '(pass)')}</p>
<p>DFEN ${code(ex.dfen)}, dice ${code(ex.dice)}</p>
${cmds.length ? `<pre>${h(cmds.join('\n'))}</pre>` : ''}</div></div>`;
}

function exampleHtml(o: OptionDoc, ex: ExampleDoc): string {
  const board = ex.dfen ? boardSvg(ex.dfen, { recorded: ex.recorded, allowed: [] }) : '';
  const cmds = [ex.check && `${ex.check}${ex.kind === 'decisive' ? '   # legal' : `   # ${ex.rule}`}`, ex.rivalCheck && `${ex.rivalCheck}   # ${ex.rule}`].filter(Boolean) as string[];
  return `<div class="example">${board}<div class="facts">
<p>Game ${code(ex.id)}${ex.location ? ` (${code(ex.location)})` : ''}, ${ex.turn === null ? 'the game as a whole' : `turn ${ex.turn}`}: under ${code(`${o.path}=${valueText(ex.findingValue)}`)} ${code(ex.rule)}: ${h(ex.message)}</p>
${ex.dfen ? `<p>DFEN ${code(ex.dfen)}, dice ${code(ex.dice ?? '')}, recorded ${code(ex.recorded.join(' ') || '(pass)')}</p>` : ''}
${cmds.length ? `<pre>${h(cmds.join('\n'))}</pre>` : ''}</div></div>`;
}
