import type { GameResultLine } from '../replay/result.js';
import { readResultBatches, ResultsFileError } from '../report/results-file.js';
import { toolVersion } from '../run/run-info.js';
import { HistoryError } from './errors.js';
import { readRunFolder, type RecordedSummary, type RunFolder } from './run-folder.js';
import { readySchema } from './schema.js';
import type { SqlValue, Store } from './store-types.js';
import { storeResults, type ResultRow } from './transitions.js';
import { identityHash } from '../run/run-info.js';


const STATUSES = new Set(['conforming', 'diverging', 'unreadable', 'faulty']);

/** The fields the history keeps, checked by hand: the schema's full check (zod) costs more than the insert at millions of lines. */
function plainLine(v: unknown): GameResultLine | null {
  const l = v as GameResultLine;
  if (typeof l !== 'object' || l === null || typeof l.id !== 'string' || typeof l.dialect !== 'string' || !STATUSES.has(l.status) || !Array.isArray(l.findings) || !Number.isInteger(l.index) || l.index < 0) return null;
  const f = l.findings[0];
  if (f !== undefined && (typeof f !== 'object' || f === null || typeof f.rule !== 'string' || typeof f.message !== 'string' || !Array.isArray(f.recorded))) return null;
  if (l.source !== undefined && l.source !== null && typeof l.source !== 'string') return null;
  // The parsed object is this reader's own: filled in place, not copied (millions of lines).
  if (l.source === undefined) l.source = null;
  if (l.turns === undefined) l.turns = null;
  return l;
}


/** What the nightly job adds to a run: the name it gave the night, and whether it promoted it. */
export interface NightlyOutcome {
  label?: string;
  promoted?: boolean;
}

export interface Recorded {
  run: number;
  label: string;
  /** Already in the history: nothing was written. */
  existed: boolean;
  lines: number;
  /** The tool version that wrote the run, when it is not this one. */
  otherVersion: string | null;
}

export interface RecordOptions extends NightlyOutcome {
  kind?: 'replay' | 'merge' | 'nightly';
  /** Called every so many result lines (the progress a long recording shows). */
  onProgress?: (lines: number) => void;
}

/** `--set` overrides per dialect, from run_info.options.dialects ("name --set a=b --set c=d"). */
function overridesOf(summary: RecordedSummary): Map<string, string> {
  const out = new Map<string, string>();
  const named = summary.run_info.options.dialects;
  for (const line of Array.isArray(named) ? named : []) {
    if (typeof line !== 'string' || !line.includes(' --set ')) continue;
    const [name, ...sets] = line.split(' --set ');
    out.set(name, sets.join(' --set '));
  }
  return out;
}

const kindOf = (s: RecordedSummary): 'replay' | 'merge' => (s.run_info.shard && s.run_info.shard.k === null ? 'merge' : 'replay');

async function nextRun(store: Store): Promise<number> {
  const rows = await store.all('SELECT max(run) AS n FROM runs');
  return Number(rows[0]?.n ?? 0) + 1;
}

async function existing(store: Store, runKey: string): Promise<{ run: number; label: string } | null> {
  const rows = await store.all('SELECT run, label FROM runs WHERE run_key = ?', [runKey]);
  return rows.length ? { run: Number(rows[0].run), label: String(rows[0].label) } : null;
}

/** Per dialect, what results.ndjson holds, to hold against summary.json's counts. */
type Tally = Map<string, { lines: number; conforming: number; diverging: number; unreadable: number; faulty: number }>;

function countsProblem(folder: RunFolder, tally: Tally): string | null {
  const s = folder.summary;
  const names = new Set([...Object.keys(s.byDialect), ...tally.keys()]);
  for (const d of [...names].sort()) {
    const want = s.byDialect[d];
    const got = tally.get(d) ?? { lines: 0, conforming: 0, diverging: 0, unreadable: 0, faulty: 0 };
    if (!want) return `results.ndjson has ${got.lines} result(s) under dialect "${d}", which summary.json does not list`;
    for (const k of ['lines', 'conforming', 'diverging', 'unreadable'] as const)
      if (want[k] !== got[k]) return `results.ndjson has ${got[k]} ${k === 'lines' ? 'result(s)' : k} under "${d}", summary.json says ${want[k]}`;
  }
  return null;
}

/** The run's dialects, with the result lines each held (after the lines: storeResults reads the runs before). */
async function insertDialects(store: Store, run: number, s: RecordedSummary, lines: Map<string, number>): Promise<void> {
  const overrides = overridesOf(s);
  await store.insertRows(
    'run_dialects',
    ['run', 'dialect', 'file', 'sha256', 'overrides', 'lines', 'conforming', 'diverging', 'unreadable', 'results'],
    Object.entries(s.byDialect).map(([d, c]) => [run, d, s.run_info.dialects[d]?.file ?? null, s.run_info.dialects[d]?.sha256 ?? null, overrides.get(d) ?? null, c.lines, c.conforming, c.diverging, c.unreadable, lines.get(d) ?? 0]),
  );
}

/** Result lines as stored rows, a batch at a time, tallied per dialect and status (weighted by their repeats) on the way. */
async function* rowsOf(batches: AsyncIterable<GameResultLine[]>, tally: Tally): AsyncGenerator<ResultRow[]> {
  for await (const lines of batches) {
    const out: ResultRow[] = new Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const r = lines[i];
      const f = r.findings[0];
      const weight = r.repeats ?? 1;
      let c = tally.get(r.dialect);
      if (!c) tally.set(r.dialect, (c = { lines: 0, conforming: 0, diverging: 0, unreadable: 0, faulty: 0 }));
      c.lines += weight;
      c[r.status] += weight;
      out[i] = {
        game: r.id, dialect: r.dialect, status: r.status, rule: f?.rule ?? null, turn: f?.turn ?? null, microMove: f?.microMove ?? null, dfen: f?.dfen ?? null, turnDfen: f?.turnDfen ?? null,
        recorded: f ? f.recorded.join(' ') : null, message: f?.message ?? null, source: r.source ?? null, index: r.index, turns: r.turns ?? null, repeats: r.repeats ?? null,
      };
    }
    yield out;
  }
}

/**
 * Records one run folder in one transaction: its provenance, per-dialect and per-rule counts
 * and its result lines, as transitions (transitions.ts). Anything wrong (a damaged line,
 * counts that disagree with the summary) rolls the whole run back. A run already recorded (same run key) is a no-op.
 */
export async function recordRun(store: Store, dir: string, opts: RecordOptions = {}): Promise<Recorded> {
  const folder = await readRunFolder(dir);
  await readySchema(store, 'write');
  const s = folder.summary;
  const label = opts.label ?? folder.label;
  const otherVersion = s.run_info.version === toolVersion() ? null : s.run_info.version;
  return store.write(async () => {
    const had = await existing(store, folder.runKey);
    if (had) return { run: had.run, label: had.label, existed: true, lines: 0, otherVersion };
    const run = await nextRun(store);
    const t = s.totals;
    await store.insertRows(
      'runs',
      ['run', 'run_key', 'label', 'folder', 'kind', 'tool_version', 'started_at', 'duration_ms', 'recorded_at', 'results_sha256', 'sharded', 'options', 'sources', 'dice', 'lines', 'conforming', 'diverging', 'unreadable', 'outcome', 'failure', 'promoted'],
      [
        [
          run, folder.runKey, label, folder.dir, opts.kind ?? kindOf(s), s.run_info.version, s.run_info.startedAt, Math.round(s.run_info.durationMs), new Date().toISOString(), folder.resultsSha256,
          s.run_info.shard ? 1 : 0, JSON.stringify(s.run_info.options), JSON.stringify(s.run_info.sources), s.dice === undefined ? null : JSON.stringify(s.dice),
          t.lines, t.conforming, t.diverging, t.unreadable, 'recorded', null, opts.promoted === undefined ? null : opts.promoted ? 1 : 0,
        ],
      ],
    );
    const rules: SqlValue[][] = [];
    for (const [rule, entry] of Object.entries(s.byRule)) for (const [d, c] of Object.entries(entry.byDialect)) rules.push([run, d, rule, c.games, c.findings]);
    await store.insertRows('run_rules', ['run', 'dialect', 'rule', 'games', 'findings'], rules);

    const tally: Tally = new Map();
    let stored;
    try {
      stored = await storeResults(store, run, Object.keys(s.byDialect), rowsOf(readResultBatches(folder.resultsPath, plainLine), tally), opts.onProgress);
    } catch (error) {
      if (error instanceof ResultsFileError) throw new HistoryError('history-damaged-results', `${error.message}: nothing recorded`);
      throw error;
    }
    const problem = countsProblem(folder, tally);
    if (problem) throw new HistoryError('history-counts-mismatch', `${dir}: ${problem}: not a complete run, nothing recorded`);
    await insertDialects(store, run, s, stored.perDialect);
    return { run, label, existed: false, lines: stored.lines, otherVersion };
  });
}

/** A night that produced no run folder (the replay failed): recorded as failed, with why. */
export async function recordFailedNight(store: Store, label: string, reason: string): Promise<Recorded> {
  await readySchema(store, 'write');
  const runKey = identityHash({ failed: label, reason }).slice(0, 32);
  return store.write(async () => {
    const had = await existing(store, runKey);
    if (had) return { run: had.run, label: had.label, existed: true, lines: 0, otherVersion: null };
    const run = await nextRun(store);
    const now = new Date().toISOString();
    await store.insertRows(
      'runs',
      ['run', 'run_key', 'label', 'folder', 'kind', 'tool_version', 'started_at', 'duration_ms', 'recorded_at', 'results_sha256', 'sharded', 'options', 'sources', 'dice', 'lines', 'conforming', 'diverging', 'unreadable', 'outcome', 'failure', 'promoted'],
      [[run, runKey, label, null, 'nightly', toolVersion(), now, null, now, null, 0, '{}', '[]', null, 0, 0, 0, 0, 'failed', reason, 0]],
    );
    return { run, label, existed: false, lines: 0, otherVersion: null };
  });
}
