import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { RUN_MARKER } from '../output/output-path.js';
import { z } from 'zod';
import { lazily } from '../lazily.js';
import { RuleEntry, StatusCounts } from '../report/summary-schema.js';
import { identityHash } from '../run/run-info.js';
import { HistoryError } from './errors.js';

/**
 * What the history reads of a summary.json: the parts it records, loosely, so that a run
 * written by another version of the tool (more or fewer fields) is still recorded, with
 * that version.
 */
const RecordedSummary = lazily(() =>
  z.looseObject({
    run_info: z.looseObject({
      version: z.string(),
      startedAt: z.string(),
      durationMs: z.number().min(0),
      dialects: z.record(z.string(), z.looseObject({ file: z.string().nullable().optional(), sha256: z.string().nullable().optional() })),
      sources: z.array(z.looseObject({ source: z.string(), sha256: z.string().nullable() })),
      options: z.record(z.string(), z.unknown()),
      shard: z.looseObject({ k: z.number().nullable() }).optional(),
    }),
    dialects: z.array(z.string()),
    byDialect: z.record(z.string(), StatusCounts),
    byRule: z.record(z.string(), RuleEntry),
    totals: StatusCounts,
    dice: z.unknown().optional(),
  }),
);
export type RecordedSummary = z.infer<typeof RecordedSummary>;

/** A finished run folder, checked enough to be recorded: its summary parsed, its results hashed. */
export interface RunFolder {
  dir: string;
  label: string;
  summary: RecordedSummary;
  resultsPath: string;
  resultsSha256: string;
  /** Derived from run_info and the results' hash: the same run recorded twice is one run. */
  runKey: string;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Checks what makes a folder a complete run folder; every refusal is one line naming the folder. */
export async function readRunFolder(dirArg: string): Promise<RunFolder> {
  const dir = resolve(dirArg);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new HistoryError('history-not-a-run', `${dirArg}: no such folder`);
  }
  if (!isDir) throw new HistoryError('history-not-a-run', `${dirArg} is a file, not a run folder`);
  if (existsSync(join(dir, 'shard.json')))
    throw new HistoryError('history-incomplete-run', `${dirArg} is one shard's partial run folder: merge the shards (dice-dialects merge) and record the merged run`);
  if (!existsSync(join(dir, RUN_MARKER))) throw new HistoryError('history-not-a-run', `${dirArg} is not a run folder (no ${RUN_MARKER}: written by dice-dialects replay or merge)`);
  for (const f of ['summary.json', 'results.ndjson'])
    if (!existsSync(join(dir, f))) throw new HistoryError('history-incomplete-run', `${dirArg} is not a complete run folder: ${f} is missing`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  } catch (e) {
    throw new HistoryError('history-incomplete-run', `${join(dirArg, 'summary.json')}: not JSON (${(e as Error).message})`);
  }
  const parsed = RecordedSummary.safeParse(json, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const version = (json as { run_info?: { version?: unknown } })?.run_info?.version;
    const from = typeof version === 'string' ? ` (written by dice-dialects ${version})` : '';
    throw new HistoryError('history-incomplete-run', `${join(dirArg, 'summary.json')} is not a summary this dice-dialects reads${from}: ${issue.path.join('.') || 'summary'}: ${issue.message}`);
  }
  const summary = parsed.data;
  const resultsPath = join(dir, 'results.ndjson');
  const resultsSha256 = await sha256File(resultsPath);
  return { dir, label: basename(dir), summary, resultsPath, resultsSha256, runKey: identityHash({ run_info: summary.run_info, results: resultsSha256 }).slice(0, 32) };
}
