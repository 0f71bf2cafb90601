import { boardSvg } from '../../explore/page/board-svg.js';
import { anythingBroke, brokenReclassified, type DiffEntry } from '../../report/diff.js';
import type { RecordedDiff } from '../queries/diff.js';
import { recordsIn } from '../../report/diff-folded.js';
import { findingLink, movesFromDfen, NO_CHECK } from '../../report/repro.js';
import { loadedAs, type ReproDialect, reproduction } from '../../run/reproduction.js';
import type { Finding } from '../../replay/result.js';
import type { GameHistory, GameState } from '../queries/game.js';
import type { RunEntry } from '../queries/runs.js';
import type { SearchAnswer } from '../queries/search.js';
import type { Trend } from '../queries/trend.js';
import { PALETTE, runsChart } from './charts.js';
import { attr, code, h, link, page, table, type Links } from './layout.js';

const outcome = (r: RunEntry) => (r.outcome === 'failed' ? `<span class="diverging">failed</span>: ${h(r.failure)}` : r.promoted === null ? h(r.kind) : r.promoted ? `${h(r.kind)}, promoted` : `${h(r.kind)}, <span class="diverging">not promoted</span>`);
const dialectList = (r: RunEntry) => r.dialects.map((d) => code(d.overrides ? `${d.dialect} --set ${d.overrides}` : d.dialect)).join(' ');
const sourceList = (r: RunEntry) => r.sources.map((s) => code(s.source)).join(' ');

export interface RunsPageQuery {
  dialect?: string;
  source?: string;
  since?: string;
  until?: string;
  tool?: string;
}

export function runsPage(links: Links, runs: RunEntry[], q: RunsPageQuery, heading = 'Runs'): string {
  const field = (name: keyof RunsPageQuery, label: string) => `<label>${h(label)}<input type="text" name="${name}" value="${attr(q[name] ?? '')}"></label>`;
  const form = links.run(1) === null ? '' : `<form class="filters" method="get" action="${attr(links.runs())}">${field('dialect', 'dialect')}${field('source', 'source contains')}${field('since', 'since (date or run)')}${field('until', 'until (date or run)')}${field('tool', 'tool version')}<button type="submit">Filter</button></form>`;
  const rows = runs.map((r, i) => {
    const older = runs[i + 1];
    const diff = older ? links.diff(older.run, r.run) : null;
    return [
      link(links.run(r.run), `#${r.run}`),
      link(links.run(r.run), h(r.label)),
      h(r.startedAt),
      h(r.toolVersion),
      outcome(r),
      dialectList(r),
      sourceList(r),
      h(r.lines),
      `<span class="conforming">${h(r.conforming)}</span>`,
      `<span class="diverging">${h(r.diverging)}</span>`,
      `<span class="unreadable">${h(r.unreadable)}</span>`,
      diff === null ? '' : link(diff, 'diff with previous'),
    ];
  });
  const body = runs.length === 0 ? '<p>No runs match.</p>' : table(['run', 'label', 'started (UTC)', 'tool', 'outcome', 'dialects', 'sources', 'results', 'conforming', 'diverging', 'unreadable', ''], rows, [7, 8, 9, 10]);
  return page(links, heading, `${form}\n<p class="muted">${runs.length} run(s), newest first.</p>\n${body}`);
}

export function trendPage(links: Links, t: Trend, q: { dialect?: string; rule?: string }): string {
  const charts = t.dialects.map((d) =>
    runsChart(
      d.dialect,
      d.points,
      [
        { name: 'conforming', color: '#2ca02c', values: d.points.map((p) => p.conforming) },
        { name: 'diverging', color: '#d62728', values: d.points.map((p) => p.diverging) },
        { name: 'unreadable', color: '#7f7f7f', values: d.points.map((p) => p.unreadable) },
      ],
    ),
  );
  // Per rule: the rules asked for, else the six with the most games in the newest run.
  const byRule = new Map<string, Trend['rules']>();
  for (const r of t.rules) byRule.set(r.rule, [...(byRule.get(r.rule) ?? []), r]);
  const latest = (list: Trend['rules']) => list.reduce((s, r) => s + (r.points.at(-1)?.games ?? 0), 0);
  const shown = [...byRule.entries()].sort((a, b) => latest(b[1]) - latest(a[1]) || a[0].localeCompare(b[0])).slice(0, q.rule ? byRule.size : 6);
  const ruleCharts = shown.map(([rule, list]) => {
    const runs = list[0].points;
    return runsChart(
      rule,
      runs,
      list.map((r, i) => {
        const games = new Map(r.points.map((x) => [x.run, x.games]));
        return { name: r.dialect, color: PALETTE[i % PALETTE.length], values: runs.map((p) => games.get(p.run) ?? 0) };
      }),
      '',
    );
  });
  const form = `<form class="filters" method="get" action="${attr(links.trend())}"><label>dialect<input type="text" name="dialect" value="${attr(q.dialect ?? '')}"></label><label>rule id<input type="text" name="rule" value="${attr(q.rule ?? '')}"></label><button type="submit">Show</button></form>`;
  const body = [
    links.run(1) === null ? '' : form,
    '<h2>Per dialect</h2>',
    '<p class="muted">Records conforming, diverging and unreadable in each run; one point per run.</p>',
    charts.length ? `<div class="charts">${charts.join('\n')}</div>` : '<p>No runs.</p>',
    `<h2>Per rule id${q.rule ? '' : ' (the six with most games in the newest run)'}</h2>`,
    '<p class="muted">Games whose first finding is the rule, per dialect; one point per run of that dialect.</p>',
    ruleCharts.length ? `<div class="charts">${ruleCharts.join('\n')}</div>` : '<p>No findings.</p>',
  ];
  return page(links, 'Trend', body.join('\n'));
}

export function runPage(links: Links, r: RunEntry & { options: unknown; dice: unknown }, folderThere: boolean, previous: number | null): string {
  const report = links.runFile(r.run, 'report.html', folderThere);
  const facts: [string, string][] = [
    ['label', h(r.label)],
    ['run key', code(r.runKey)],
    ['outcome', outcome(r)],
    ['tool version', h(r.toolVersion)],
    ['started (UTC)', h(r.startedAt)],
    ['duration', r.durationMs === null ? '—' : `${h((r.durationMs / 1000).toFixed(1))} s`],
    ['recorded', h(r.recordedAt)],
    ['sharded', r.sharded ? 'yes (merged from shards)' : 'no'],
    ['folder', r.folder === null ? '—' : `${code(r.folder)} ${report === null ? (r.folder ? '<span class="muted">(no longer there)</span>' : '') : link(report, 'open its report')}`],
    ['options', code(JSON.stringify(r.options))],
  ];
  const dialects = table(
    ['dialect', 'file', 'sha256', '--set', 'results', 'conforming', 'diverging', 'unreadable'],
    r.dialects.map((d) => [code(d.dialect), code(d.file), code(d.sha256?.slice(0, 16) ?? null), code(d.overrides), h(d.lines), h(d.conforming), h(d.diverging), h(d.unreadable)]),
    [4, 5, 6, 7],
  );
  const sources = table(['source', 'sha256'], r.sources.map((s) => [code(s.source), code(s.sha256)]));
  const dice = r.dice as { turns?: number; pass?: { rate: number | null; expected: number | null }; faces?: { counts: number[]; pValue: number | null } } | null;
  const diceText =
    dice && dice.faces
      ? table(['turns', 'faces (P N B R Q K)', 'χ² p-value', 'forced passes', 'expected'], [[h(dice.turns), h(dice.faces.counts.join(' ')), h(dice.faces.pValue), h(dice.pass?.rate ?? null), h(dice.pass?.expected ?? null)]])
      : '<p>No dice statistics.</p>';
  const search = links.search(`since:${r.run} until:${r.run} status:diverging`);
  const diff = previous === null ? null : links.diff(previous, r.run);
  const body = [
    table(['', ''], facts.map(([k, v]) => [h(k), v])),
    `<p>${[diff === null ? '' : link(diff, `diff with run #${previous}`), search === null ? '' : link(search, 'its diverging results')].filter(Boolean).join(' · ')}</p>`,
    '<h2>Dialects</h2>',
    dialects,
    '<h2>Sources</h2>',
    sources,
    '<h2>Dice statistics</h2>',
    diceText,
  ];
  return page(links, `Run #${r.run}`, body.join('\n'));
}

function finding(s: GameState): Finding {
  return { rule: s.rule ?? '', turn: s.turn, microMove: s.microMove, dfen: s.dfen, ...(s.turnDfen !== undefined && { turnDfen: s.turnDfen }), dice: null, recorded: s.recorded, allowed: [], message: s.message ?? '', location: null };
}

const verdict = (s: GameState | null) => (s === null ? '—' : `<span class="${attr(s.status)}">${h(s.status)}</span>${s.rule ? ` ${code(s.rule)}` : ''}${s.turn !== null ? ` at turn ${h(s.turn)}` : ''}`);

/** Transitions a game page shows per dialect: boards are drawn only for the page shown. */
export const GAME_PAGE = 50;

/** The transitions of one page (1-based) of a game's history, per dialect, and how many pages there are. */
export function gamePageSlice(g: GameHistory, page: number): { pages: number; shown: GameHistory } {
  const pages = Math.max(1, ...g.dialects.map((d) => Math.ceil(d.transitions.length / GAME_PAGE)));
  const from = (Math.min(Math.max(1, page), pages) - 1) * GAME_PAGE;
  return { pages, shown: { game: g.game, dialects: g.dialects.map((d) => ({ ...d, transitions: d.transitions.slice(from, from + GAME_PAGE) })) } };
}

export function gamePage(links: Links, g: GameHistory, folders: Map<number, boolean>, overrides: Map<string, string | null>, pageNo = 1, dialect?: string): string {
  const { pages, shown } = gamePageSlice(g, pageNo);
  const at = Math.min(Math.max(1, pageNo), pages);
  const pageLink = (n: number, text: string) => {
    const url = links.game(g.game, dialect);
    return url === null ? h(text) : link(`${url}${n === 1 ? '' : `&page=${n}`}`, h(text));
  };
  const nav =
    pages === 1
      ? ''
      : `<p class="pages">page ${h(at)} of ${h(pages)} (${h(GAME_PAGE)} transitions a dialect a page, oldest first)${at > 1 ? ` · ${pageLink(1, 'first')} · ${pageLink(at - 1, 'earlier')}` : ''}${at < pages ? ` · ${pageLink(at + 1, 'later')} · ${pageLink(pages, 'last')}` : ''}</p>`;
  // A game that flips back and forth shows the same position again and again: each board is drawn once.
  const boards = new Map<string, string>();
  const board = (dfen: string, recorded: string[]) => {
    const key = `${dfen}\u0000${recorded.join(' ')}`;
    let svg = boards.get(key);
    if (svg === undefined) boards.set(key, (svg = boardSvg(dfen, { recorded, allowed: [] })));
    return svg;
  };
  const dialects = new Map<string, ReproDialect | null>();
  const sections = shown.dialects.map((d, di) => {
    const total = g.dialects[di].transitions.length;
    const items = d.transitions.map((t) => {
      const s = t.after;
      const tags = t.changed.length === 0 ? '<span class="tag">first run</span>' : t.changed.map((c) => `<span class="tag">${h(c)}</span>`).join('');
      const f = finding(s);
      const set = overrides.get(`${s.run}\u0000${d.dialect}`);
      const check = s.dfen === null ? null : reproductionNow(dialects, d.dialect, set ? set.split(' --set ') : [], f);
      const explorerFile = s.dfen === null ? null : links.runFile(s.run, 'explorer.html', folders.get(s.run) === true);
      const explorer = explorerFile === null ? null : findingLink(explorerFile, d.dialect, set ? set.split(' --set ') : [], f);
      const facts = [
        `<p>${link(links.run(s.run), `run #${h(s.run)} ${h(s.label)}`)} <span class="muted">${h(s.startedAt)} · tool ${h(s.toolVersion)} · dialect ${code(s.dialectSha256?.slice(0, 12) ?? null)}</span></p>`,
        `<p>${tags} ${t.before ? `${verdict(t.before)} → ` : ''}${verdict(s)}</p>`,
        s.message ? `<p>${h(s.message)}</p>` : '',
        s.recorded.length ? `<p>recorded: ${code(s.recorded.join(' '))}</p>` : '',
        s.source ? `<p class="muted">${code(s.source)} record #${h(s.index)}${s.turns !== null ? `, ${h(s.turns)} turns` : ''}</p>` : '',
        check !== null ? `<pre>${h(check)}</pre>` : s.dfen !== null ? `<p class="muted">${h(NO_CHECK)}</p>` : '',
        explorer === null ? '' : `<p>${link(explorer, 'open the position in the explorer')}</p>`,
      ];
      const svg = s.dfen !== null && s.status !== 'conforming' ? board(s.dfen, movesFromDfen(f)) : '';
      return `<div class="example">${svg}<div class="facts">${facts.join('')}</div></div>`;
    });
    return `<h2>${code(d.dialect)}</h2>\n<p class="muted">${h(d.runs)} run(s) judged it; ${h(total)} of them changed something.</p>\n${items.join('\n')}`;
  });
  return page(links, `Game ${g.game}`, [nav, ...sections, nav].filter(Boolean).join('\n'));
}

function diffList(links: Links, title: string, entries: DiffEntry[], cap: number): string {
  if (entries.length === 0) return '';
  const side = (s: DiffEntry['before']) =>
    s === null
      ? '—'
      : `<span class="${attr(s.status)}">${h(s.status)}</span>${s.rule ? ` ${code(s.rule)}` : ''}${s.repeats !== undefined ? `, ${h(s.repeats)} record(s) written as one folded line` : s.folded !== undefined ? ` (counted in the folded line ${code(s.folded)})` : ''}`;
  const rows = entries.slice(0, cap).map((e) => [code(e.dialect), link(links.game(e.id, e.dialect), code(e.id)), code(e.source), side(e.before), side(e.after)]);
  const more = entries.length > cap ? `<p class="muted">… and ${entries.length - cap} more (the JSON route has them all).</p>` : '';
  return `<h2>${h(title)} (${h(recordsIn(entries))})</h2>\n${table(['dialect', 'game', 'corpus', 'before (A)', 'after (B)'], rows)}${more}`;
}

export function diffPage(links: Links, a: RunEntry, b: RunEntry, d: RecordedDiff, cap = 500): string {
  const reclassified = brokenReclassified(d).length;
  const form = links.run(1) === null ? '' : `<form class="filters" method="get" action="${attr(links.diff() ?? '')}"><label>run A<input type="text" name="a" value="${attr(String(a.run))}"></label><label>run B<input type="text" name="b" value="${attr(String(b.run))}"></label><button type="submit">Compare</button></form>`;
  const gone = recordsIn(d.gone);
  const bad = anythingBroke(d, { configChanges: d.configChanges });
  const counts = table(['change', 'records'], [['broken', h(d.broken.length)], ['fixed', h(d.fixed.length)], ['reclassified', h(d.reclassified.length)], ['new', h(recordsIn(d.new))], ['gone', h(gone)], ['unchanged', h(d.unchanged)]], [1]);
  const body = [
    form,
    `<p>A: ${link(links.run(a.run), `run #${a.run} ${h(a.label)}`)} (${h(a.startedAt)}) → B: ${link(links.run(b.run), `run #${b.run} ${h(b.label)}`)} (${h(b.startedAt)})</p>`,
    `<div class="banner ${bad ? 'bad' : 'good'}">${d.broken.length ? `${d.broken.length} record(s) broke.` : bad ? '' : 'Nothing broke.'}${reclassified ? ` ${reclassified} reclassified record(s) count as broken: their first rule changed.` : ''}${gone ? ` ${gone} record(s) gone.` : ''}${d.fixed.length ? ` ${d.fixed.length} fixed.` : ''}${d.configChanges?.length ? ` The configuration changed (${h(d.configChanges.join('; '))}): the runs are not comparable.` : ''}</div>`,
    counts,
    diffList(links, 'Broken', d.broken, cap),
    diffList(links, 'Fixed', d.fixed, cap),
    diffList(links, 'Reclassified', d.reclassified, cap),
    diffList(links, 'New', d.new, cap),
    diffList(links, 'Gone', d.gone, cap),
  ];
  return page(links, `Diff #${a.run} → #${b.run}`, body.join('\n'));
}

export function searchPage(links: Links, q: string, answer: SearchAnswer | null, error: string | null): string {
  const rows = (answer?.rows ?? []).map((r) => [
    link(links.run(r.run), `#${h(r.run)}`),
    h(r.label),
    code(r.dialect),
    link(links.game(r.game, r.dialect), code(r.game)),
    r.previousStatus ? `${h(r.previousStatus)} → <span class="${attr(r.status)}">${h(r.status)}</span>` : `<span class="${attr(r.status)}">${h(r.status)}</span>`,
    code(r.rule),
    code(r.source),
    h(r.message),
  ]);
  const help = '<p class="muted">Terms: <code>dialect:</code> <code>rule:</code> <code>status:</code> <code>game:</code> <code>source:</code> <code>since:</code> <code>until:</code> (dates or runs) and <code>changed</code>, joined by AND; <code>*</code> matches any text.</p>';
  const result =
    error !== null
      ? `<div class="banner bad">${h(error)}</div>`
      : q === ''
        ? ''
        : `<p class="muted">${h(answer!.rows.length)} row(s)${answer!.truncated ? ' (the first ones: narrow the query)' : ''}.</p>\n${rows.length ? table(['run', 'label', 'dialect', 'game', 'status', 'rule', 'source', 'message'], rows) : ''}`;
  return page(links, 'Search', `${help}\n${result}`, { searchQuery: q });
}

export function errorPage(links: Links, status: number, message: string): string {
  return page(links, status === 404 ? 'Not found' : status === 400 ? 'Bad request' : 'Error', `<div class="banner bad">${h(message)}</div>\n<p>${link(links.runs(), 'Back to the runs')}</p>`);
}

/**
 * The check command that shows a stored finding under its dialect as this build loads it (by
 * name, with the run's `--set`), or null when none does (run/reproduction.ts): a run of an
 * older dialect may no longer reproduce.
 */
function reproductionNow(loaded: Map<string, ReproDialect | null>, name: string, overrides: string[], f: Finding): string | null {
  const key = [name, ...overrides].join('\u0000');
  let d = loaded.get(key);
  if (d === undefined) loaded.set(key, (d = loadedAs([name], overrides)));
  return d === null ? null : reproduction(d, f);
}
