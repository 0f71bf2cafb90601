import { readFileSync } from 'node:fs';
import type { CoreError, Result } from '../core/errors.js';
import { type Dialect, type DialectProblem, DIALECTS_DIR, listDialects, loadDialect as loadNamedDialect, loadDialectObject } from '../dialects/index.js';
import type { GameRecord } from '../records/model/game-record.js';
import type { ReadItem } from '../records/items.js';
import { type ReadOptions, readRecords as readAll } from '../records/read.js';
import type { StreamInput } from '../records/input/text-source.js';
import { type PreparedDialect, prepareDialect, replayGame } from '../replay/replay-game.js';
import type { GameResultLine } from '../replay/result.js';
import { type ReplayRunOptions, type ReplayRunResult, runReplay as runPipeline } from './pipeline.js';

/**
 * The Node side of the library API: dialects from names and files, records from any
 * source, replaying. The same modules the command line calls.
 */

export interface DialectOptions {
  /** `--set`-style overrides: `enPassant.window=first-micro-move`. */
  set?: readonly string[];
  /** Folder of the named dialects (default: the shipped `dialects/`). */
  dir?: string;
}

/**
 * A dialect by name (`reference`), alias (`dicechess.com`), file path (`./house.json`) or
 * as an object (a parsed dialect file, which may `extends` a shipped dialect by name).
 */
export function loadDialect(source: string | object, options: DialectOptions = {}): Result<Dialect, DialectProblem[]> {
  const overrides = options.set ?? [];
  if (typeof source === 'string') return loadNamedDialect(source, overrides, options.dir === undefined ? {} : { dir: options.dir });
  return loadDialectObject(source, overrides, { known: knownDefinitions(options.dir ?? DIALECTS_DIR) });
}

/** The definitions of the named dialects, parsed (unreadable ones are left out: loading one by name reports it). */
function knownDefinitions(dir: string): unknown[] {
  const out: unknown[] = [];
  for (const d of listDialects(dir)) {
    try {
      out.push(JSON.parse(readFileSync(d.file, 'utf8')));
    } catch {
      // loading it by name reports the problem
    }
  }
  return out;
}

/** A record source: a file, folder, glob, http(s) URL or `-`, or bytes you hand over. */
export type RecordSource = string | { name: string; data: string | Uint8Array | AsyncIterable<Uint8Array | string> };

/**
 * Every record of every source in input order, each either `{kind: 'record', record}` or
 * `{kind: 'unreadable', code, message, location}` (bad data never throws). The format is
 * told from the content unless `options.format` names it.
 */
export function readRecords(sources: readonly RecordSource[], options: Omit<ReadOptions, 'deferRaw'> = {}): AsyncIterable<ReadItem> {
  const inputs = sources.map((s): string | StreamInput => (typeof s === 'string' ? s : { kind: 'stream', name: s.name, data: s.data }));
  return readAll(inputs, options);
}

const prepared = new WeakMap<Dialect, PreparedDialect>();

/** Judges one game under one dialect: the results.ndjson line (status, findings with rule ids, sentences and positions). */
export function replayRecord(record: GameRecord, dialect: Dialect, options: { continueAfterDivergence?: boolean; index?: number } = {}): GameResultLine {
  let p = prepared.get(dialect);
  if (!p) {
    p = prepareDialect(dialect.name, dialect.rules);
    prepared.set(dialect, p);
  }
  return replayGame(record, p, options.index ?? 0, { continueAfterDivergence: options.continueAfterDivergence === true });
}

export interface RunOptions extends Omit<ReplayRunOptions, 'dialects'> {
  /** Dialect names, aliases or files; `set` applies to each. */
  dialects: readonly string[];
  set?: readonly string[];
}

/** A replay run that could not start or finish (bad dialect, an output folder that cannot be written). */
export interface RunError extends CoreError {
  problems?: DialectProblem[];
}

/**
 * The `replay` command's run: streams the sources through every dialect and writes the
 * run folder (`results.ndjson`, `summary.json`, `report.md`, `report.html`, `junit.xml`).
 */
export async function runReplay(options: RunOptions): Promise<Result<ReplayRunResult, RunError>> {
  const overrides = [...(options.set ?? [])];
  if (options.dialects.length === 0) return { ok: false, error: { code: 'run.no-dialect', message: 'name at least one dialect' } };
  const dialects: ReplayRunOptions['dialects'] = [];
  for (const name of options.dialects) {
    const loaded = loadNamedDialect(name, overrides);
    if (!loaded.ok) return { ok: false, error: { code: loaded.error[0].code, message: `dialect "${name}": ${loaded.error[0].message}`, problems: loaded.error } };
    dialects.push({ dialect: loaded.value, overrides });
  }
  const { set: _set, ...rest } = options;
  try {
    return { ok: true, value: await runPipeline({ ...rest, dialects }) };
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    return { ok: false, error: { code: typeof err.code === 'string' ? err.code : 'run.failed', message: String(err.message ?? e) } };
  }
}
