import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { GameResultLine } from '../replay/result.js';
import { mdCode } from './escape.js';
import { readResults } from './results-file.js';

/**
 * Per-record run diffs (fixed / broken / reclassified / new / gone) rather than
 * deltas of totals, which let one fix hide one regression.
 */

import { classify, type DiffEntry, type DiffSide, type RunDiff } from './diff-classify.js';
import { type Fold, recordsIn, settleFolded } from './diff-folded.js';

export { classify, type DiffCategory, type DiffEntry, type DiffSide, type RunDiff } from './diff-classify.js';

/**
 * Every reclassified record counts as broken: its first rule changed, which a loosened
 * check does as well as a fixed one (`--set maximum=none` turns `maximum.fewer-dice`
 * into `record.fen-after-mismatch`). The same rule at an earlier (or any other) point
 * is the same class, so it is not reclassified: the diff pairs records by their first
 * rule only.
 */
export function reclassifiedBroke(_e: DiffEntry): boolean {
  return true;
}

/** What a diff needs of one result line (a run folder's line, or a row of the run history). */
export interface DiffInput {
  id: string;
  dialect: string;
  source: string | null;
  status: DiffSide['status'];
  /** The rule of the first finding. */
  rule: string | null;
  index: number;
  /** A folded line: how many records it stands for. */
  repeats?: number | null;
}

const inputOf = (line: GameResultLine): DiffInput => ({ id: line.id, dialect: line.dialect, source: line.source ?? null, status: line.status, rule: line.findings[0]?.rule ?? null, index: line.index, repeats: line.repeats });

/** A verdict as the diff holds it; a folded line's count only where it has one (the JSON of both diffs alike). */
export const diffSide = (status: DiffSide['status'], rule: string | null, index: number, repeats?: number | null): DiffSide =>
  repeats === undefined || repeats === null ? { status, rule, index } : { status, rule, index, repeats };

const side = (line: DiffInput): DiffSide => diffSide(line.status, line.rule, line.index, line.repeats);

/** A folded line: repeated unreadable records written once, with their count. */
export const isFold = (line: { repeats?: number | null }): boolean => line.repeats !== undefined && line.repeats !== null;

/** id + dialect, plus the occurrence number so a duplicated id is paired in order, not collapsed. */
function keyer(): (line: DiffInput) => string {
  const seen = new Map<string, number>();
  return (line) => {
    const base = `${line.id}\u0000${line.dialect}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return `${base}\u0000${n}`;
  };
}

async function* inputs(lines: AsyncIterable<GameResultLine>): AsyncGenerator<DiffInput> {
  for await (const line of lines) yield inputOf(line);
}

/**
 * Streams both runs' results.ndjson. Run A is held as one small entry per record
 * (status and rule only); run B is never held. Entries keep B's input order (A's for
 * `gone`), so the diff is deterministic.
 */
export async function diffRuns(dirA: string, dirB: string): Promise<RunDiff> {
  const d = await diffLines(inputs(readResults(resultsPath(dirA))), inputs(readResults(resultsPath(dirB))));
  d.repairedFaults = repairedFaultChanges(dirA, dirB);
  return d;
}

/** The diff of two runs' lines, each in its run's order: the one implementation `diff` and the run history share. */
export async function diffLines(linesA: AsyncIterable<DiffInput> | Iterable<DiffInput>, linesB: AsyncIterable<DiffInput> | Iterable<DiffInput>): Promise<RunDiff> {
  const before = new Map<string, { side: DiffSide; id: string; dialect: string; source: string | null }>();
  // Folded lines are set against the other run's records after the pairing (diff-folded.ts), never paired by id.
  const foldsA: Fold[] = [];
  const foldsB: Fold[] = [];
  const keyA = keyer();
  for await (const line of linesA) {
    if (isFold(line)) foldsA.push({ id: line.id, dialect: line.dialect, source: line.source, side: side(line) });
    else before.set(keyA(line), { side: side(line), id: line.id, dialect: line.dialect, source: line.source });
  }
  const out: RunDiff = { fixed: [], broken: [], reclassified: [], new: [], gone: [], faulted: [], repairedFaults: [], unchanged: 0 };
  const keyB = keyer();
  for await (const line of linesB) {
    if (isFold(line)) {
      foldsB.push({ id: line.id, dialect: line.dialect, source: line.source, side: side(line) });
      continue;
    }
    const key = keyB(line);
    const after = side(line);
    const a = before.get(key);
    const entry: DiffEntry = { id: line.id, dialect: line.dialect, source: line.source, before: a?.side ?? null, after };
    if (!a) {
      out.new.push(entry);
      continue;
    }
    before.delete(key);
    const category = classify(a.side, after);
    if (category === 'unchanged') out.unchanged++;
    else out[category].push(entry);
  }
  for (const a of before.values()) out.gone.push({ id: a.id, dialect: a.dialect, source: a.source, before: a.side, after: null });
  settleFolded(out, foldsA, foldsB);
  return out;
}

/** Normalised and metadata recording faults per code in a run folder's summary.json (none when it has no summary). */
function repairedFaults(run: string): Record<string, number> {
  try {
    const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')) as { recordingFaults?: Record<string, { records?: number }> };
    return Object.fromEntries(Object.entries(summary.recordingFaults ?? {}).map(([code, e]) => [code, e.records ?? 0]));
  } catch {
    return {};
  }
}

function repairedFaultChanges(dirA: string, dirB: string): RunDiff['repairedFaults'] {
  const a = repairedFaults(dirA);
  const b = repairedFaults(dirB);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .sort()
    .map((code) => ({ code, before: a[code] ?? 0, after: b[code] ?? 0 }))
    .filter((c) => c.before !== c.after);
}

/** A run folder's results.ndjson; a path to the file itself is accepted too. */
function resultsPath(run: string): string {
  try {
    if (statSync(run).isFile()) return run;
  } catch {
    // Missing: let the reader report it with the path it expected.
  }
  return join(run, 'results.ndjson');
}

export interface BrokeOptions {
  /** The corpus shrank on purpose: records only in run A are not a regression. */
  allowGone?: boolean;
  /** What differs between the two runs' configurations (configChanges); empty or absent: the same. */
  configChanges?: string[];
  /** A changed configuration was meant (--allow-config-change). */
  allowConfigChange?: boolean;
}

/** Reclassified records that count as broken (reclassifiedBroke). */
export const brokenReclassified = (d: RunDiff): DiffEntry[] => d.reclassified.filter(reclassifiedBroke);

/**
 * True when the nightly should fail: something that conformed no longer does, a
 * record changed its first rule (unless to the same rule earlier), records are gone (a
 * reader that silently drops games looks like a smaller corpus), or the runs were made
 * under different dialects, overrides, options or tool versions, which can make any
 * diff look clean.
 */
export function anythingBroke(d: RunDiff, opts: BrokeOptions = {}): boolean {
  return (
    d.broken.length > 0 ||
    brokenReclassified(d).length > 0 ||
    (d.gone.length > 0 && opts.allowGone !== true) ||
    ((opts.configChanges?.length ?? 0) > 0 && opts.allowConfigChange !== true)
  );
}

/** What a run was made under, from its summary's run_info: what must match for a diff to mean anything. */
export interface RunConfig {
  version?: unknown;
  dialects?: unknown;
  options?: Record<string, unknown>;
}

/** Options that change how a run goes, not what it finds. */
const NEUTRAL_OPTIONS = new Set(['jobs', 'quiet']);

const text = (v: unknown): string => JSON.stringify(v) ?? 'none';

/** Each difference between two runs' configurations, as a sentence; [] when they were made alike. */
export function configChanges(a: RunConfig, b: RunConfig): string[] {
  const out: string[] = [];
  if (text(a.version) !== text(b.version)) out.push(`tool version ${text(a.version)} → ${text(b.version)}`);
  if (text(a.dialects) !== text(b.dialects)) out.push(`dialects and overrides ${text(a.dialects)} → ${text(b.dialects)}`);
  const keys = [...new Set([...Object.keys(a.options ?? {}), ...Object.keys(b.options ?? {})])].filter((k) => !NEUTRAL_OPTIONS.has(k)).sort();
  for (const k of keys) if (text(a.options?.[k]) !== text(b.options?.[k])) out.push(`option ${k} ${text(a.options?.[k])} → ${text(b.options?.[k])}`);
  return out;
}

function verdict(s: DiffSide | null): string {
  if (!s) return '—';
  const text = s.rule ? `${s.status} ${mdCode(s.rule, true)}` : s.status;
  if (s.repeats !== undefined) return `${text}, ${s.repeats} record(s) written as one folded line`;
  return s.folded !== undefined ? `${text} (counted in the folded line ${mdCode(s.folded, true)})` : text;
}

function listSection(title: string, note: string, entries: DiffEntry[]): string[] {
  if (entries.length === 0) return [];
  const lines = [`## ${title} (${recordsIn(entries)})`, '', note, '', '| dialect | game | corpus | before (A) | after (B) |', '| --- | --- | --- | --- | --- |'];
  for (const e of entries) {
    lines.push(`| ${mdCode(e.dialect, true)} | ${mdCode(e.id, true)} | ${e.source !== null ? mdCode(e.source, true) : '—'} | ${verdict(e.before)} | ${verdict(e.after)} |`);
  }
  lines.push('');
  return lines;
}

/** The night's recording faults in words, apart from broken: hidden play (faulty) and repaired faults that changed. */
function faultLines(d: RunDiff): string[] {
  const out: string[] = [];
  if (d.faulted.length) out.push(`The corpus gained ${d.faulted.length} record verdict(s) with a recording fault: listed apart, not broken.`);
  for (const c of d.repairedFaults) out.push(`- recording fault ${mdCode(c.code)} repaired in ${c.after} record(s) (was ${c.before})`);
  return out.length ? [...out, ''] : [];
}

export function renderDiffMarkdown(d: RunDiff, opts: BrokeOptions = {}): string {
  const goneRecords = recordsIn(d.gone);
  const gone = goneRecords === 0 ? '' : opts.allowGone ? ` ${goneRecords} record(s) gone (allowed: --allow-gone).` : ` **${goneRecords} record(s) gone**: they count as broken unless the corpus shrank on purpose (--allow-gone).`;
  const reclassified = brokenReclassified(d).length;
  const changes = opts.configChanges ?? [];
  const config =
    changes.length === 0
      ? ''
      : opts.allowConfigChange
        ? ` The configuration changed (allowed: --allow-config-change): ${changes.join('; ')}.`
        : ` **The configuration changed** (${changes.join('; ')}): the runs are not comparable, and it counts as broken unless meant (--allow-config-change).`;
  const headline =
    (d.broken.length ? `**${d.broken.length} record(s) broke.**` : anythingBroke(d, opts) ? '' : 'Nothing broke.') +
    (reclassified ? ` **${reclassified} reclassified record(s) count as broken**: their first rule changed.` : '') +
    gone +
    config;
  const fixedNote = d.fixed.length
    ? ` **${d.fixed.length} record(s) now pass that used to fail**: an unexpected pass until someone confirms the fix.`
    : '';
  const lines = [
    '# Run diff',
    '',
    `${headline}${fixedNote}`.trim(),
    '',
    '| change | records |',
    '| --- | ---: |',
    `| broken | ${d.broken.length} |`,
    `| fixed | ${d.fixed.length} |`,
    `| reclassified | ${d.reclassified.length} |`,
    `| new | ${recordsIn(d.new)} |`,
    `| gone | ${goneRecords} |`,
    ...(d.faulted.length ? [`| recording faults | ${d.faulted.length} |`] : []),
    `| unchanged | ${d.unchanged} |`,
    '',
    ...faultLines(d),
    ...listSection('Broken', 'Conforming (or readable) in A, not in B.', d.broken),
    ...listSection('Fixed', 'Diverging or unreadable in A, conforming in B. Report it as loudly as a failure: a pass nobody expected may hide a weakened check.', d.fixed),
    ...listSection('Reclassified', 'Not conforming in either run, with a different first rule: counted as broken (a loosened check changes the first rule too).', d.reclassified),
    ...listSection('New', 'Only in B.', d.new),
    ...listSection('Gone', 'Only in A.', d.gone),
    ...listSection('Recording faults', "Records that now show a recording fault hiding their play (docs/recording-faults.md): the record's problem, not a regression of the rules.", d.faulted),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
