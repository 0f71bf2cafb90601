import { z } from 'zod';
import { lazily } from '../lazily.js';
import { Example } from '../replay/result.js';

/**
 * The shape of `summary.json`. Everything a renderer shows comes from here, so the
 * Markdown, HTML and JUnit reports can be re-rendered from a summary alone (the
 * report never re-plays and never re-reads the results).
 */

/** A count: a whole number from 0. */
export const Count = lazily(() => z.number().int().min(0));

/** Machine facts and timestamps: the only part of a summary that differs between two runs of the same input. */
export const RunInfo = lazily(() =>
  z
    .object({
      tool: z.string(),
      version: z.string(),
      node: z.string(),
      startedAt: z.string(),
      durationMs: z.number().min(0),
      dialects: z.record(z.string(), z.object({ file: z.string(), sha256: z.string() }).strict()),
      sources: z.array(z.object({ source: z.string(), sha256: z.string().nullable() }).strict()),
      options: z.record(z.string(), z.unknown()),
      /**
       * A sharded run: `k` of `n` (a shard's partial folder) or the merge of all `n` (k null,
       * with each shard's own facts in `parts`); `runKey` identifies the run its shards belong to.
       */
      shard: z
        .object({
          k: z.number().int().min(1).nullable(),
          n: z.number().int().min(1),
          runKey: z.string(),
          parts: z.array(z.object({ k: z.number().int().min(1), node: z.string(), startedAt: z.string(), durationMs: z.number().min(0), jobs: z.number().int().min(1) }).strict()).optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
);
export type RunInfo = z.infer<typeof RunInfo>;

/** Lines by status; `findings` counts every finding, not only the first of each game. */
export const StatusCounts = lazily(() =>
  z
    .object({
      lines: Count,
      conforming: Count,
      diverging: Count,
      unreadable: Count,
      /** Lines whose first finding is a recording fault that hides the play (docs/recording-faults.md): the record's problem, never the dialect's. */
      faulty: Count.default(0),
      findings: Count,
    })
    .strict(),
);
export type StatusCounts = z.infer<typeof StatusCounts>;

/** `games`: lines whose first finding has this rule (the game's class); `findings`: every occurrence. */
export const RuleCounts = lazily(() => z.object({ games: Count, findings: Count }).strict());
export type RuleCounts = z.infer<typeof RuleCounts>;

export const RuleEntry = lazily(() => RuleCounts.extend({ byDialect: z.record(z.string(), RuleCounts) }).strict());
export type RuleEntry = z.infer<typeof RuleEntry>;

export const MatrixCell = lazily(() => z.object({ conforming: Count, diverging: Count, unreadable: Count, faulty: Count.default(0) }).strict());
export type MatrixCell = z.infer<typeof MatrixCell>;

/** Corpus (source) × dialect; `cells[s][d]` follows the order of `sources` and `dialects`. */
export const Matrix = lazily(() =>
  z
    .object({
      sources: z.array(z.string().nullable()),
      dialects: z.array(z.string()),
      cells: z.array(z.array(MatrixCell)),
    })
    .strict(),
);
export type Matrix = z.infer<typeof Matrix>;

/** One reproduction per (dialect, rule): a finding in its place (replay/result.ts). */
export { Example };

/** An observed proportion next to what the rules predict (`expected` null when nothing predicts it). */
export const Rate = lazily(() =>
  z
    .object({ count: Count, of: Count, rate: z.number().nullable(), expected: z.number().nullable(), basis: z.string() })
    .strict(),
);
export type Rate = z.infer<typeof Rate>;

export const DiceStats = lazily(() =>
  z
    .object({
      /** Recorded turns seen (once per corpus, not per dialect). */
      turns: Count,
      pass: Rate,
      openingPass: Rate,
      faces: z
        .object({
          /** counts[0] is face 1 (pawn) … counts[5] face 6 (king). */
          counts: z.array(Count).length(6),
          total: Count,
          /** Values outside 1–6 (kept out of the test but counted so they are not lost). */
          invalid: Count,
          expectedEach: z.number().nullable(),
          chiSquare: z.number().nullable(),
          df: z.literal(5),
          pValue: z.number().nullable(),
        })
        .strict(),
      doubles: Rate.extend({ byDiceCount: z.record(z.string(), Rate) }).strict(),
    })
    .strict(),
);
export type DiceStats = z.infer<typeof DiceStats>;

/**
 * Recording faults the readers repaired (normalised) or read as site conventions (metadata),
 * counted once per record whatever the number of dialects, with the corpora they came from.
 * Never divergences: `--fail-on diverging` does not count them. Reported faults are classes
 * of `byRule` (their lines are `faulty`).
 */
export const FaultEntry = lazily(() =>
  z
    // replaced: text whose bytes were not UTF-8, each such byte read as U+FFFD (ids and names may differ from the site's).
    .object({ handling: z.enum(['normalised', 'metadata', 'replaced']), records: Count, bySource: z.record(z.string(), Count) })
    .strict(),
);
export type FaultEntry = z.infer<typeof FaultEntry>;

/** Something said about a source that is not a record: passed over as not records, empty, a folder link not followed again. */
export const SourceNote = lazily(() =>
  z
    .object({ source: z.string(), code: z.enum(['source.skipped', 'source.empty', 'source.link-loop', 'source.link-repeat']), message: z.string() })
    .strict(),
);
export type SourceNote = z.infer<typeof SourceNote>;

export const Summary = lazily(() =>
  z
    .object({
      format: z.literal('dice-dialects/summary@1'),
      run_info: RunInfo,
      /** Dialects in the order the run named them (then any others seen in results). */
      dialects: z.array(z.string()),
      totals: StatusCounts,
      byDialect: z.record(z.string(), StatusCounts),
      byRule: z.record(z.string(), RuleEntry),
      /** Present when several dialects ran. */
      matrix: Matrix.nullable(),
      examples: z.array(Example),
      dice: DiceStats,
      /** Notes about sources, in input order (none of them is a record, so no count above includes them). */
      notes: z.array(SourceNote).default([]),
      /** Normalised and metadata recording faults by code (FaultEntry). */
      recordingFaults: z.record(z.string(), FaultEntry).default({}),
    })
    .strict(),
);
export type Summary = z.infer<typeof Summary>;
