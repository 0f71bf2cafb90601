import { createHash } from 'node:crypto';
import { type Dialect, loadDialect } from '../dialects/index.js';
import type { FormatName } from '../records/model/game-record.js';
import type { ReadOptions, SourceNote } from '../records/index.js';
import { expandSources } from '../records/input/expand.js';
import { fileHash } from '../run/run-info.js';
import { INFERRED_DIALECT_FILE, inferredDialect } from './dialect-file.js';
import { DEFAULT_EVIDENCE, DEFAULT_TAKE_RATE } from './evidence.js';
import { writeOutputFile } from '../output/file-output.js';
import { openFolderOutput } from '../output/folder-output.js';
import { buildDocument, type DocumentContext, type InferDocument, inferredSets } from './document.js';
import { opportunityKind } from './opportunities/turn-tests.js';
import { type OptionPlan, overrideOf, valueText } from './options.js';
import { renderInferHtml } from './render-html.js';
import { renderInferMarkdown } from './render-md.js';
import { dialectSpec, type DialectSpec } from '../replay/judge-record.js';
import { type Progress, runCorpus, type SourceFailure } from '../run/pipeline.js';
import { createJudge, type InferPlan } from './judge.js';
import { emptyTally, type InferTally, mergeTally } from './tally.js';

export interface InferRunOptions {
  sources: string[];
  /** The base dialect as the user named it (name, alias or path), and as loaded. */
  baseArg: string;
  base: Dialect;
  /** The user's --set (every variant, named dialects excepted, as `replay --all-dialects` counts them). */
  baseOverrides: string[];
  options: OptionPlan[];
  /** The named dialects counted for the best fit. */
  named: Dialect[];
  format?: FormatName | 'auto';
  /** Only files below folder sources whose path matches. */
  glob?: string;
  /** dicechess.com history list (game metadata, and what each game settled: `cube.declineLoses`). */
  historyList?: ReadOptions['historyList'];
  /** The HTTP limits of URL sources. */
  http?: ReadOptions['http'];
  jobs?: number;
  forceJobs?: boolean;
  limit?: number;
  /** Run folder: infer.json, report.md, report.html (written whole or not at all). */
  out?: string;
  /** The inferred dialect file. */
  write?: string;
  /** --write-favoured: the file also takes each option's favoured value when it is alone (evidence by absence, in the note). */
  writeFavoured?: boolean;
  /** Evidence by absence: the take rate p (default 0.01) and the log10 LR that disfavours (default 2). */
  takeRate?: number;
  evidence?: number;
  /** Verdicts per corpus file or per month. */
  by?: 'source' | 'month';
  onProgress?: (pass: 'infer' | 'confirm', p: Progress) => void;
  /** Told of each source that could not be read at all (the run exits 2 for one), once. */
  onSourceFailure?: (failure: SourceFailure) => void;
  /** A source's note (a file passed over, an empty one), as replay prints it. */
  onNote?: (note: SourceNote) => void;
}

export interface InferRunResult {
  doc: InferDocument;
  sourceErrors: number;
}

/**
 * `infer`: one pass judging every record under every candidate value of every option
 * (and every named dialect), the method applied to the merged counts, then one
 * confirmation pass with every inferred value at once, then the outputs.
 */
export async function runInfer(opts: InferRunOptions): Promise<InferRunResult> {
  const started = performance.now();
  const base = dialectSpec(opts.base, opts.baseOverrides);
  const plan: InferPlan = {
    base,
    options: opts.options.map((o) => {
      const baseIndex = o.values.findIndex((v) => valueText(v) === valueText(o.baseValue));
      return { path: o.path, values: o.values, dialects: o.values.map((v, j) => (j === baseIndex ? base : variantSpec(opts.base, [...opts.baseOverrides, overrideOf(o.path, v)]))), baseIndex };
    }),
    named: opts.named.map((d) => dialectSpec(d, [])),
  };
  const stream = { sources: opts.sources, format: opts.format, glob: opts.glob, historyList: opts.historyList, http: opts.http, jobs: opts.jobs, forceJobs: opts.forceJobs, limit: opts.limit };
  // A source that cannot be read is told of once, in the first pass.
  const first = await judgeCorpus({ ...stream, plan, onProgress: (p) => opts.onProgress?.('infer', p), onSourceFailure: opts.onSourceFailure, onNote: opts.onNote });
  const ctx: DocumentContext = {
    baseArg: opts.baseArg,
    baseName: opts.base.name,
    baseOverrides: opts.baseOverrides,
    options: opts.options,
    kinds: opts.options.map((o) => opportunityKind(o.path)),
    namedNames: opts.named.map((d) => d.name),
    corpus: await corpusHash(opts.sources, opts.glob, first.digests),
    wallMs: 0,
    takeRate: opts.takeRate ?? DEFAULT_TAKE_RATE,
    threshold: opts.evidence ?? DEFAULT_EVIDENCE,
    by: opts.by ?? null,
  };
  const draft = buildDocument(ctx, first.tally, { conforming: null, baseConforming: 0, judged: false, set: [], note: '' });
  const sets = inferredSets(draft.options);
  const baseConforming = first.tally.baseConforming;
  let confirmation: InferDocument['confirmation'];
  if (sets.length === 0) {
    confirmation = { conforming: baseConforming, baseConforming, judged: false, set: [], note: 'no inferred value differs from the base dialect: the confirmation dialect is the base dialect' };
  } else if (opts.sources.includes('-')) {
    confirmation = { conforming: null, baseConforming, judged: false, set: sets, note: 'standard input cannot be read a second time: run infer on a file to confirm' };
  } else {
    const confirm = variantSpec(opts.base, [...opts.baseOverrides, ...sets]);
    const second = await judgeCorpus({ ...stream, plan: { base: plan.base, options: [], named: [], confirm }, onProgress: (p) => opts.onProgress?.('confirm', p) });
    confirmation = { conforming: second.tally.confirmation, baseConforming, judged: true, set: sets, note: `the corpus judged once more under ${opts.base.name} ${sets.map((s) => `--set ${s}`).join(' ')}` };
  }
  ctx.wallMs = performance.now() - started;
  const doc = buildDocument(ctx, first.tally, confirmation);
  if (opts.out !== undefined) {
    const folder = await openFolderOutput('--out', opts.out, 'infer-folder');
    try {
      await folder.writeFile('infer.json', `${JSON.stringify(doc, null, 2)}\n`);
      await folder.writeFile('report.md', renderInferMarkdown(doc));
      await folder.writeFile('report.html', renderInferHtml(doc));
    } catch (e) {
      await folder.abort();
      throw e;
    }
    await folder.commit();
  }
  // A corpus of no game infers nothing: no dialect file is written from it.
  if (opts.write !== undefined && doc.games > 0) await writeOutputFile('--write', opts.write, inferredDialect(opts.write, opts.base, opts.baseArg, doc, opts.writeFavoured === true), { ours: INFERRED_DIALECT_FILE });
  return { doc, sourceErrors: first.sourceErrors };
}

/**
 * The base dialect with these overrides, resolved here once for every thread. Every value
 * judged was checked to load (planOption), so a failure is a bug.
 */
function variantSpec(base: Dialect, overrides: string[]): DialectSpec {
  const loaded = loadDialect(base.file, overrides);
  if (!loaded.ok) throw new Error(`dialect ${base.file} ${overrides.join(' ')}: ${loaded.error.map((p) => p.message).join('; ')}`);
  return dialectSpec(loaded.value, overrides);
}

/**
 * Each file's SHA-256, and one over them all in reading order (URLs and stdin are named, not
 * hashed): as the pipeline took it while reading, or for a file not read to its end (--limit)
 * from its bytes now.
 */
async function corpusHash(sources: string[], glob: string | undefined, digests: ReadonlyMap<string, string>): Promise<InferDocument['corpus']> {
  const out: InferDocument['corpus']['sources'] = [];
  for await (const input of expandSources(sources, glob)) {
    if (input.kind === 'file') out.push({ source: input.path, sha256: digests.get(input.path) ?? (await fileHash(input.path)) });
    else if (input.kind === 'url') out.push({ source: input.url, sha256: null });
    else if (input.kind === 'stdin') out.push({ source: '-', sha256: null });
    else if (input.kind === 'note') continue; // passed over or empty: nothing of it is judged
    else out.push({ source: input.name, sha256: null });
  }
  const all = createHash('sha256');
  for (const s of out) all.update(`${s.sha256 ?? `unhashed:${s.source}`}\n`);
  return { sources: out, sha256: all.digest('hex') };
}

/**
 * One pass of the run pipeline (read → judge in workers → accumulate) with the infer
 * judge: no run folder (infer writes its own outputs), the batches' tallies merged in
 * input order.
 */
async function judgeCorpus(opts: {
  sources: string[];
  plan: InferPlan;
  format?: FormatName | 'auto';
  glob?: string;
  historyList?: ReadOptions['historyList'];
  http?: ReadOptions['http'];
  jobs?: number;
  forceJobs?: boolean;
  limit?: number;
  onProgress?: (p: Progress) => void;
  onSourceFailure?: (failure: SourceFailure) => void;
  onNote?: (note: SourceNote) => void;
}): Promise<{ tally: InferTally; records: number; sourceErrors: number; digests: ReadonlyMap<string, string> }> {
  const plan = opts.plan;
  const run = await runCorpus<InferPlan, InferTally>({
    sources: opts.sources,
    format: opts.format,
    ...(opts.glob !== undefined && { glob: opts.glob }),
    ...(opts.historyList !== undefined && { historyList: opts.historyList }),
    ...(opts.http !== undefined && { http: opts.http }),
    jobs: opts.jobs,
    forceJobs: opts.forceJobs,
    limit: opts.limit,
    onProgress: opts.onProgress,
    onSourceFailure: opts.onSourceFailure,
    onNote: opts.onNote,
    judge: {
      columns: [],
      module: 'infer',
      params: plan,
      create: createJudge,
      // Every record judged under each named dialect and each option value: as many replays' worth, or more.
      weight: plan.named.length + plan.options.reduce((n, o) => n + o.values.length, 0),
      state: { initial: () => emptyTally(plan.named.length, plan.options.map((o) => o.values.length)), merge: mergeTally },
    },
    about: { dialects: {}, options: {} },
  });
  return { tally: run.state!, records: run.progress.records, sourceErrors: run.sourceErrors, digests: run.digests };
}
