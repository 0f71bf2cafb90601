import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openRunDir } from './run-dir.js';
import { reproductionsOf } from './reproduction.js';
import type { RunInfo, Summary } from '../report/summary-schema.js';
import { RunAccumulator } from './accumulator.js';
import { SHARD_FILE, ShardManifest } from './manifest.js';
import { ResultFolding } from './fold.js';
import { ResultsMismatch, ShardResults } from './merge-results.js';
import { toolVersion } from './run-info.js';
import { writeText } from '../records/output/write-text.js';

/** Why a set of folders cannot be merged; nothing was written. */
export class MergeError extends Error {
  constructor(
    readonly code: 'merge.not-a-shard' | 'merge.foreign' | 'merge.duplicate' | 'merge.missing' | 'merge.inconsistent' | 'merge.results' | 'merge.counters',
    message: string,
  ) {
    super(message);
  }
}

export interface MergeResult {
  summary: Summary;
  records: number;
  sourceErrors: number;
  n: number;
  /** No shard held a record: the run checked nothing. */
  nothingRead: boolean;
}

interface Shard {
  dir: string;
  k: number;
  m: ShardManifest;
}

/**
 * Turns the N partial folders of `replay --shard K/N` into the run folder `replay`
 * without `--shard` would have written, byte for byte outside run_info (and the
 * reports' Run info section). Checks first that the folders are exactly the N shards of
 * one run; summaries are merged from the shards' counters and examples (never re-read
 * from the results), and the results are concatenated in the run's order with each
 * line's index renumbered. Published atomically: on any error nothing is written.
 */
export async function mergeShards(dirs: string[], out: string): Promise<MergeResult> {
  const started = Date.now();
  const shards = await checkSet(await Promise.all(dirs.map(loadShard)));
  const first = shards[0].m;
  const n = first.run_info.shard!.n;
  const units = first.units;

  // Every unit's record count, from the shard that owns it or (striped) from all of them, which must agree.
  const readsOf = shards.map((s) => new Map(s.m.reads.map((r) => [r.unit, r])));
  const unitRecords = units.map((u, i) => {
    const seen = shards.flatMap((s, j) => (readsOf[j].has(i) ? [{ s, r: readsOf[j].get(i)! }] : []));
    if (u.owner !== null && !seen.some((x) => x.s.k === u.owner)) throw new MergeError('merge.inconsistent', `shard ${u.owner} (${shards.find((s) => s.k === u.owner)!.dir}) did not read ${u.name}, which it owns`);
    for (const x of seen) {
      if (x.r.records !== seen[0].r.records || x.r.sha256 !== seen[0].r.sha256) {
        throw new MergeError('merge.inconsistent', `${u.name} differs between shard ${seen[0].s.k} and shard ${x.s.k} (${seen[0].r.records} vs ${x.r.records} records, sha256 ${seen[0].r.sha256} vs ${x.r.sha256}): the shards did not read the same corpus`);
      }
    }
    return seen[0]?.r.records ?? 0;
  });
  const globalStart: number[] = [];
  unitRecords.reduce((at, records, i) => ((globalStart[i] = at), at + records), 0);

  // Summaries: each shard's state in the run's numbering, then merged (order-independent).
  const acc = new RunAccumulator(first.state.dialects);
  for (const s of shards) {
    const reads = [...s.m.reads].sort((a, b) => a.localStart - b.localStart);
    const at = (local: number): number => {
      let lo = 0;
      let hi = reads.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (reads[mid].localStart <= local) lo = mid;
        else hi = mid - 1;
      }
      const r = reads[lo];
      return globalStart[r.unit] + local - r.localStart;
    };
    const state = RunAccumulator.fromState(s.m.state).state(at);
    acc.merge(state);
  }

  const run = await openRunDir(out, '--out');
  try {
    // Every counter a shard states is counted again from its own lines: an edited shard.json (its hash recomputed too) is refused.
    const recount = shards.map((s) => new RunAccumulator(s.m.state.dialects));
    const readers = shards.map((s, i) => new ShardResults(join(s.dir, 'results.ndjson'), s.m.results, (line) => recount[i].addResult(line)));
    const write = async (parts: Buffer[]): Promise<void> => {
      if (parts.length === 0) return;
      await writeText(run.resultsStream, Buffer.concat(parts));
    };
    const block = first.block;
    // Shards write every line: repeated unreadable lines are folded here, in the run's order, as a single run folds them.
    const folding = new ResultFolding();
    const keep = (line: Parameters<ResultFolding['admit']>[0]) => folding.admit(line);
    for (let u = 0; u < units.length; u++) {
      const records = unitRecords[u];
      if (records === 0) continue;
      const owner = units[u].owner;
      if (owner !== null) {
        const r = readsOf[owner - 1].get(u)!;
        const parts: Buffer[] = [];
        // Large units are copied in pieces so the merge holds little in memory.
        for (let from = 0; from < records; from += 4096) {
          const to = Math.min(records, from + 4096);
          await readers[owner - 1].copy(r.localStart + from, r.localStart + to, globalStart[u] - r.localStart, parts, keep);
          await write(parts.splice(0));
        }
        continue;
      }
      for (let b = 0; b * block < records; b++) {
        const k = (b % n) + 1;
        const r = readsOf[k - 1].get(u)!;
        const parts: Buffer[] = [];
        await readers[k - 1].copy(r.localStart + b * block, r.localStart + Math.min(records, (b + 1) * block), globalStart[u] - r.localStart, parts, keep);
        await write(parts);
      }
    }
    for (const r of readers) await r.finish();
    shards.forEach((s, i) => checkCounters(s, recount[i]));
    const closing = folding.closingText();
    if (closing) await write([Buffer.from(closing)]);

    const runInfo = mergedRunInfo(shards, Date.now() - started);
    acc.setReproductions(reproductionsOf(runInfo));
    const summary = acc.build(runInfo);
    if (summary.totals.lines !== shards.reduce((s, x) => s + x.m.results.lines, 0)) throw new MergeError('merge.inconsistent', 'the shards\' counters do not add up to their results');
    await run.finish(summary, { junitPerGame: first.junitPerGame });
    const records = shards.reduce((s, x) => s + x.m.records, 0);
    const sourceErrors = shards.reduce((s, x) => s + x.m.sourceErrors, 0);
    return { summary, records, sourceErrors, n, nothingRead: records === 0 && sourceErrors === 0 };
  } catch (error) {
    const failed = await run.abort();
    if (failed) throw failed;
    if (error instanceof ResultsMismatch) throw new MergeError('merge.results', error.message);
    throw error;
  }
}

/** The parts of a shard's state its results determine (the dice statistics and source notes come from the corpus itself). */
const COUNTED = ['totals', 'byDialect', 'byRule', 'corpora', 'examples'] as const;

/** The first path where two JSON values differ, with both values, or null when they are equal. */
const canon = (v: unknown): string =>
  v !== null && typeof v === 'object'
    ? Array.isArray(v)
      ? `[${v.map(canon).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
    : (JSON.stringify(v) ?? 'null');

function firstDifference(a: unknown, b: unknown, at: string): string | null {
  if (canon(a) === canon(b)) return null;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`);
      if (d !== null) return d;
    }
  }
  return `${at}: ${JSON.stringify(a) ?? 'absent'} in shard.json, ${JSON.stringify(b) ?? 'absent'} from the results`;
}

function checkCounters(s: Shard, recounted: RunAccumulator): void {
  const stated = RunAccumulator.fromState(s.m.state).state();
  const counted = recounted.state();
  for (const key of COUNTED) {
    const d = firstDifference(stated[key], counted[key], key);
    if (d !== null) throw new MergeError('merge.counters', `${s.dir}/${SHARD_FILE}: its counters do not match its results.ndjson (${d}); the shard was edited or damaged: replay it again`);
  }
}

async function loadShard(dir: string): Promise<Shard> {
  let text: string;
  try {
    text = await readFile(join(dir, SHARD_FILE), 'utf8');
  } catch (e) {
    throw new MergeError('merge.not-a-shard', `${dir}: no ${SHARD_FILE} (${(e as NodeJS.ErrnoException).code ?? 'unreadable'}); is it a folder written by replay --shard?`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MergeError('merge.not-a-shard', `${dir}/${SHARD_FILE}: not JSON`);
  }
  const parsed = ShardManifest.safeParse(json);
  if (!parsed.success || !parsed.data.run_info.shard || parsed.data.run_info.shard.k === null) {
    const issue = parsed.success ? null : parsed.error.issues[0];
    throw new MergeError('merge.not-a-shard', `${dir}/${SHARD_FILE}: not a shard manifest${issue ? ` (${issue.path.join('.') || 'file'}: ${issue.message})` : ''}`);
  }
  return { dir, k: parsed.data.run_info.shard.k, m: parsed.data };
}

/** The folders must be shards 1…N of one run, each once; returns them in K order. */
async function checkSet(shards: Shard[]): Promise<Shard[]> {
  const ref = shards[0];
  const key = ref.m.run_info.shard!.runKey;
  for (const s of shards) {
    if (s.m.run_info.shard!.runKey !== key) {
      throw new MergeError(
        'merge.foreign',
        `${s.dir} is shard ${s.k}/${s.m.run_info.shard!.n} of another run than ${ref.dir} (run key ${s.m.run_info.shard!.runKey.slice(0, 12)} vs ${key.slice(0, 12)}: different sources, dialects, options or tool version)`,
      );
    }
  }
  const n = ref.m.run_info.shard!.n;
  const byK = new Map<number, Shard>();
  for (const s of shards) {
    const dup = byK.get(s.k);
    if (dup) throw new MergeError('merge.duplicate', `shard ${s.k}/${n} given twice: ${dup.dir} and ${s.dir}`);
    byK.set(s.k, s);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byK.has(k));
  if (missing.length) throw new MergeError('merge.missing', `missing shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of ${n}`);
  return [...byK.values()].sort((a, b) => a.k - b.k);
}

/** run_info of the merged run: the run's identity and sources, this process's facts, each shard's own in `parts`. */
function mergedRunInfo(shards: Shard[], durationMs: number): RunInfo {
  const first = shards[0].m.run_info;
  const hashes = new Map<string, string | null>();
  for (const s of shards) for (const r of s.m.reads) if (r.sha256 !== null) hashes.set(s.m.units[r.unit].name, r.sha256);
  const { jobs: _jobs, ...options } = first.options;
  return {
    tool: first.tool,
    version: toolVersion(),
    node: process.version,
    startedAt: shards.map((s) => s.m.run_info.startedAt).sort()[0],
    durationMs,
    dialects: first.dialects,
    sources: first.sources.map((s) => ({ source: s.source, sha256: hashes.get(s.source) ?? null })),
    options,
    shard: {
      k: null,
      n: first.shard!.n,
      runKey: first.shard!.runKey,
      parts: shards.map((s) => ({ k: s.k, node: s.m.run_info.node, startedAt: s.m.run_info.startedAt, durationMs: s.m.run_info.durationMs, jobs: Number(s.m.run_info.options.jobs) || 1 })),
    },
  };
}
