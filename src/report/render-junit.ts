import type { GameResultLine } from '../replay/result.js';
import { moreFindingsText } from './format.js';
import { classCountText, divergenceClasses, type RuleKinds } from './classes.js';
import { escapeXml as x } from './escape.js';
import { allowedText } from './repro.js';
import { runVerdict } from './run-verdict.js';
import type { Example, Summary } from './summary-schema.js';

/**
 * junit.xml for CI dashboards: one suite per dialect; one case per divergence class
 * (a failure, or an error for unreadable records) plus one passing case so a clean
 * dialect still shows up; with `perGame`, one case per record too. Case names are
 * stable across runs (counts go in messages), so dashboards can track them.
 */

interface Case {
  classname: string;
  name: string;
  kind: 'pass' | 'failure' | 'error';
  type?: string;
  message?: string;
  body?: string;
}

function caseXml(c: Case): string {
  const open = `    <testcase classname="${x(c.classname)}" name="${x(c.name)}" time="0"`;
  if (c.kind === 'pass') return `${open}/>`;
  return `${open}>\n      <${c.kind} type="${x(c.type ?? '')}" message="${x(c.message ?? '')}">${x(c.body ?? '')}</${c.kind}>\n    </testcase>`;
}

function exampleText(e: Example): string {
  const f = e.finding;
  const lines = [`game ${e.id}${e.source !== null ? ` (${e.source}, record #${e.index})` : ` (record #${e.index})`}`];
  if (f.location !== null) lines.push(`location: ${f.location}`);
  if (f.turn !== null) lines.push(`turn ${f.turn}${f.microMove !== null ? `, micro-move ${f.microMove}` : ''}`);
  if (f.dfen !== null) lines.push(`dfen: ${f.dfen}`);
  if (f.dice !== null) lines.push(`dice: ${f.dice}`);
  if (f.recorded.length || f.turn !== null) lines.push(`recorded: ${f.recorded.join(' ') || '(pass)'}`);
  const { shown, more } = allowedText(f.allowed);
  if (shown.length) lines.push(`allowed: ${shown.join(', ')}${more ? `, and ${more} more` : ''}`);
  lines.push(`message: ${f.message}`);
  const cmd = e.reproduce ?? null;
  if (cmd) lines.push(`reproduce: ${cmd}`);
  return lines.join('\n');
}

function suiteXml(name: string, cases: Case[], properties: Record<string, number>): string {
  const failures = cases.filter((c) => c.kind === 'failure').length;
  const errors = cases.filter((c) => c.kind === 'error').length;
  const props = Object.entries(properties)
    .map(([k, v]) => `      <property name="${x(k)}" value="${v}"/>`)
    .join('\n');
  return [
    `  <testsuite name="${x(name)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="0">`,
    ...(props ? [`    <properties>\n${props}\n    </properties>`] : []),
    ...cases.map(caseXml),
    '  </testsuite>',
  ].join('\n');
}

export function renderJunit(summary: Summary, kinds: RuleKinds, perGame?: Iterable<GameResultLine>): string {
  const classes = divergenceClasses(summary, kinds);
  const cases = new Map<string, Case[]>(summary.dialects.map((d) => [d, []]));
  for (const d of summary.dialects) {
    const list = cases.get(d)!;
    // A run that read no record checked nothing: an error, never a pass CI could take for a green run.
    list.push(
      runVerdict(summary.totals) === 'nothing-checked'
        ? { classname: `dice-dialects.${d}`, name: 'replay completed', kind: 'error', type: 'run.nothing-checked', message: 'the sources held no record: nothing was checked' }
        : { classname: `dice-dialects.${d}`, name: 'replay completed', kind: 'pass' },
    );
    for (const c of classes) {
      const counts = c.counts.byDialect[d];
      if (!counts) continue;
      const example = c.examples.find((e) => e.dialect === d);
      list.push({
        classname: `dice-dialects.${d}`,
        name: c.rule,
        kind: c.kind === 'divergence' ? 'failure' : 'error',
        type: c.rule,
        message: `${classCountText(counts, c.rule)}${example ? `: ${example.finding.message}` : ''}`,
        body: example ? exampleText(example) : '',
      });
    }
  }
  if (perGame) {
    for (const line of perGame) {
      let list = cases.get(line.dialect);
      if (!list) cases.set(line.dialect, (list = []));
      const first = line.findings[0];
      list.push({
        classname: `dice-dialects.${line.dialect}.${line.source ?? 'records'}`,
        name: line.id,
        kind: line.status === 'conforming' ? 'pass' : line.status === 'diverging' ? 'failure' : 'error',
        type: first?.rule,
        message: first ? `${first.rule}: ${first.message}` : line.status,
        body: [...line.findings.map((f) => `${f.rule}${f.turn !== null ? ` (turn ${f.turn})` : ''}: ${f.message}`), ...(line.moreFindings ? [moreFindingsText(line.moreFindings)] : [])].join('\n'),
      });
    }
  }
  const suites = [...cases].map(([d, list]) => {
    const c = summary.byDialect[d];
    return suiteXml(d, list, c ? { records: c.lines, conforming: c.conforming, diverging: c.diverging, unreadable: c.unreadable, faulty: c.faulty } : {});
  });
  const all = [...cases.values()].flat();
  const failures = all.filter((c) => c.kind === 'failure').length;
  const errors = all.filter((c) => c.kind === 'error').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dice-dialects" tests="${all.length}" failures="${failures}" errors="${errors}" time="0">\n${suites.join('\n')}\n</testsuites>\n`;
}
