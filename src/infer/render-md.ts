import { escapeMarkdown as e, mdCode, mdFence } from '../report/escape.js';
import type { ExampleDoc, InferDocument, OptionDoc } from './document.js';
import { basisWords } from './evidence-doc.js';
import { notCountedWhy, type OpportunityKind } from './opportunities/turn-tests.js';
import { valueText } from './options.js';
import { notJudgeable } from './verdict-phrase.js';

/** What an option's opportunities are, in words, by how they are counted. */
const OPPORTUNITY_WORDS: Record<OpportunityKind, string> = {
  turn: 'turns',
  clock: 'clock readings',
  outcome: 'turn ends',
  'turn+outcome': 'turns and turn ends',
  cube: 'turn starts before the roll (a double the side to move could offer)',
  roll: 'rolls (a roll the dice could have shown)',
  decline: 'declined doubles whose record states a cost',
  none: '',
};

const fmt = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));
const val = (v: unknown, inTable = false): string => mdCode(valueText(v), inTable);
const pct = (n: number, of: number): string => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);

/**
 * report.md: the best-fitting dialect first, then one self-contained section per option
 * (verdict sentence, values table, counts per corpus, decisive games with the `check`
 * commands that reproduce them): a section pasted into a rules issue is the evidence.
 */
export function renderInferMarkdown(doc: InferDocument): string {
  const out: string[] = [];
  out.push(`# Inferred rules: ${e(doc.base)} over ${fmt(doc.games)} games`, '');
  const best = doc.bestDialect;
  if (best) out.push(`**Best-fitting named dialect: ${mdCode(best.name)}**, ${fmt(best.conforming)} of ${fmt(doc.games)} games conform (${pct(best.conforming, doc.games)})${best.tiedWith.length ? `; as many under ${best.tiedWith.map((n) => mdCode(n)).join(', ')}` : ''}.`, '');
  else out.push('**No named dialect fits any game of this corpus.**', '');
  out.push('| dialect | conforming games | share |', '|---|---:|---:|');
  for (const d of doc.dialects) out.push(`| ${mdCode(d.name, true)} | ${fmt(d.conforming)} | ${pct(d.conforming, doc.games)} |`);
  out.push('');
  out.push('| option | base value | inferred | verdict | favoured | strongest evidence (log10 LR) |', '|---|---|---|---|---|---:|');
  // Nothing inferred: the values still consistent; the verdict column says undecided or not judgeable, once.
  for (const o of doc.options) out.push(`| ${mdCode(o.path, true)} | ${val(o.baseValue, true)} | ${o.inferred !== null ? val(o.inferred, true) : `—${o.consistent.length ? ` (consistent: ${o.consistent.map((c) => val(c, true)).join(', ')})` : ''}`} | ${notJudgeable(o) !== null ? 'not judgeable' : o.verdict}${o.mixed ? ', mixed' : ''} | ${o.favoured.map((f) => val(f, true)).join(', ') || '—'} | ${strongest(o)} |`);
  out.push('');
  const c = doc.confirmation;
  out.push(
    `**Confirmation:** ${c.judged ? `with every inferred value at once (${c.set.map((s) => mdCode(`--set ${s}`)).join(' ')}), ${fmt(c.conforming)} games conform` : `${e(c.note)}; ${fmt(c.conforming)} games conform`}; under the base dialect ${mdCode(doc.base)}${doc.set.length ? ` (${doc.set.map((s) => mdCode(`--set ${s}`)).join(' ')})` : ''}: ${fmt(c.baseConforming)}.`,
    '',
  );
  out.push(`Corpus: ${fmt(doc.games)} games judged, ${fmt(doc.unreadable)} unreadable records${doc.unreadable ? ` (${Object.entries(doc.unreadableCodes).map(([k, n]) => `${mdCode(k)} ${n}`).join(', ')})` : ''}; sha256 ${mdCode(doc.corpus.sha256)} over ${doc.corpus.sources.length} source${doc.corpus.sources.length === 1 ? '' : 's'}.`, '');
  out.push(`<details><summary>Method</summary>`, '', e(doc.method), '', `Evidence by absence: ${e(doc.evidenceModel.formula)}, at p = ${doc.takeRate} (--take-rate); a value is disfavoured at ${doc.evidenceThreshold} or more (--evidence). ${e(doc.evidenceModel.assumption)} ${e(doc.evidenceModel.independence)}`, '', e(doc.evidenceModel.diceModel), '', '</details>', '');
  for (const o of doc.options) out.push(...optionSection(doc, o));
  return `${out.join('\n')}\n`;
}

function optionSection(doc: InferDocument, o: OptionDoc): string[] {
  const out: string[] = [];
  out.push(`## ${mdCode(o.path)}`, '');
  out.push(o.sentence, '');
  out.push(`**With evidence by absence** (${basisWords(o.evidenceBasis, doc.takeRate)}): ${o.favouredSentence}`, '');
  out.push(...evidenceLines(o));
  out.push(`Base dialect ${mdCode(doc.base)}${doc.set.length ? ` with ${doc.set.map((s) => mdCode(`--set ${s}`)).join(' ')}` : ''}; ${fmt(doc.games)} games; each value judged with every other option at the base value.`, '');
  const rivals = o.values.map((v) => valueText(v.value));
  out.push(`| value | conforming | diverging | decisive | opportunities | ${rivals.map((r) => `vs ${mdCode(r, true)}`).join(' | ')} | first rules of diverging games |`);
  out.push(`|---|---:|---:|---:|---:|${rivals.map(() => '---:|').join('')}---|`);
  for (const v of o.values) {
    const mark = valueText(v.value) === valueText(o.baseValue) ? ' (base)' : '';
    const by = rivals.map((r) => (r === valueText(v.value) || v.opportunities.total === null ? '—' : fmt(v.opportunities.byRival[r] ?? 0)));
    const rules = Object.entries(v.rules).slice(0, 3).map(([k, n]) => `${mdCode(k, true)} ${fmt(n)}`).join(', ') || '—';
    out.push(`| ${val(v.value, true)}${mark} | ${fmt(v.conforming)} | ${fmt(v.diverging)} | ${fmt(v.decisive)} | ${fmt(v.opportunities.total)} | ${by.join(' | ')} | ${rules} |`);
  }
  out.push('');
  out.push(
    o.opportunitiesCounted === 'none'
      ? `Opportunities are not counted for this option (${notCountedWhy(o.path)}, not turn by turn).`
      : `Opportunities: ${OPPORTUNITY_WORDS[o.opportunitiesCounted]}, in games conforming under the value, at which the rival would have allowed what the value forbids (chances to refute the value that the games did not take; evidence, not a verdict).`,
    '',
  );
  const corpora = [...new Set(o.values.flatMap((v) => v.byCorpus.map((b) => b.corpus)))];
  if (corpora.length > 1) {
    out.push('Counts per corpus (conforming / decisive):', '');
    out.push(`| corpus | ${o.values.map((v) => val(v.value, true)).join(' | ')} |`, `|---|${o.values.map(() => '---:|').join('')}`);
    for (const corpus of corpora) {
      out.push(`| ${mdCode(corpus, true)} | ${o.values.map((v) => { const b = v.byCorpus.find((x) => x.corpus === corpus); return b ? `${fmt(b.conforming)} / ${fmt(b.decisive)}` : '—'; }).join(' | ')} |`);
    }
    out.push('');
  }
  const decisive = o.values.filter((v) => v.decisiveGames.length > 0);
  if (decisive.length === 0) {
    out.push('No decisive game: no game conforms under one value alone.', '');
  } else {
    out.push('### Decisive games', '');
    for (const v of decisive) {
      out.push(`Games that conform only under ${mdCode(v.set)} (${fmt(v.decisive)}; the first ${v.decisiveGames.length}):`, '');
      for (const ex of v.decisiveGames) out.push(...exampleLines(o, ex));
    }
  }
  const diverging = o.values.filter((v) => v.example?.kind === 'diverging');
  if (diverging.length) {
    out.push('### First divergence under each value without a decisive game', '');
    for (const v of diverging) out.push(...exampleLines(o, v.example!));
  }
  if (o.excluded.length) out.push(`Not judged (the base dialect cannot take them): ${o.excluded.map((x) => `${val(x.value)} (${e(x.reason)})`).join('; ')}.`, '');
  return out;
}

/** The best log10 LR of the option's evidence, or why there is none. */
function strongest(o: OptionDoc): string {
  if (o.opportunitiesCounted === 'none') return 'not counted';
  const top = o.pairs[0];
  return top ? `${top.log10LR.toFixed(1)} (${mdCode(valueText(top.value), true)} vs ${mdCode(valueText(top.rival), true)})` : '—';
}

/** Strength per pair of consistent values, and the example turn of each disfavoured value. */
function evidenceLines(o: OptionDoc): string[] {
  const out: string[] = [];
  if (o.pairs.length) {
    out.push(`| looser value | stricter rival | opportunities (${o.evidenceBasis === 'dice-model' ? 'rolls' : 'turns'}) | games with one | log10 LR | ${o.evidenceBasis === 'dice-model' ? "each game's strongest roll" : 'at most one per game'} |`, '|---|---|---:|---:|---:|---:|');
    for (const p of o.pairs) out.push(`| ${val(p.value, true)} | ${val(p.rival, true)} | ${fmt(p.opportunities)} | ${fmt(p.games)} | ${p.log10LR.toFixed(2)} | ${p.log10LRPerGame.toFixed(2)} |`);
    out.push('');
  }
  for (const ev of o.evidence) {
    const ex = ev.example;
    if (!ex) continue;
    out.push(`- ${val(ev.value)} disfavoured: game ${mdCode(ex.id)}${ex.location ? ` (${mdCode(ex.location)})` : ''}, turn ${ex.turn}: ${val(ev.value)} also allowed ${e(ex.allowed)}; recorded ${mdCode(ex.recorded.join(' ') || '(pass)')}`);
    out.push(`  DFEN ${mdCode(ex.dfen)}, dice ${mdCode(ex.dice)}`);
    const cmds = [ex.check && `${ex.check}   # legal`, ex.strictCheck && `${ex.strictCheck}   # refused`].filter(Boolean) as string[];
    if (cmds.length) out.push('', ...mdFence(cmds.join('\n'), 'sh').split('\n').map((l) => `  ${l}`));
    out.push('');
  }
  if (o.groups) {
    out.push(`Verdicts per ${o.groups.by === 'month' ? 'month' : 'corpus file'}:`, '', '| group | games | inferred | favoured |', '|---|---:|---|---|');
    for (const g of o.groups.groups) out.push(`| ${mdCode(g.group, true)} | ${fmt(g.games)} | ${g.inferred === null ? 'undecided' : val(g.inferred, true)} | ${g.favoured.map((f) => val(f, true)).join(', ') || '—'} |`);
    out.push('');
    for (const c of o.groups.changes) out.push(`- From ${mdCode(c.month)}: favoured ${c.to.map((x) => val(x)).join(', ')} (before: ${c.from.map((x) => val(x)).join(', ')}).`);
    if (o.groups.changes.length) out.push('');
  }
  return out;
}

function exampleLines(o: OptionDoc, ex: ExampleDoc): string[] {
  const out: string[] = [];
  const at = ex.turn === null ? 'the game as a whole' : `turn ${ex.turn}`;
  const under = `${o.path}=${valueText(ex.findingValue)}`;
  out.push(`- Game ${mdCode(ex.id)}${ex.location ? ` (${mdCode(ex.location)})` : ''}, ${at}: under ${mdCode(under)} ${mdCode(ex.rule)}: ${e(ex.message)}`);
  if (ex.dfen) out.push(`  DFEN ${mdCode(ex.dfen)}, dice ${mdCode(ex.dice ?? '')}, recorded ${mdCode(ex.recorded.join(' ') || '(pass)')}`);
  const cmds = [ex.check && `${ex.check}${ex.kind === 'decisive' ? '   # legal' : `   # ${ex.rule}`}`, ex.rivalCheck && `${ex.rivalCheck}   # ${ex.rule}`].filter(Boolean) as string[];
  if (cmds.length) out.push('', ...mdFence(cmds.join('\n'), 'sh').split('\n').map((l) => `  ${l}`));
  out.push('');
  return out;
}
