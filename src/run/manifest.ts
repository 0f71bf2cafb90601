import { z } from 'zod';
import { lazily } from '../lazily.js';
import { Count, RunInfo, SourceNote } from '../report/summary-schema.js';
import { AccumulatorState } from './accumulator.js';

export const SHARD_MANIFEST = 'dice-dialects/shard@1';
export const SHARD_FILE = 'shard.json';

/**
 * shard.json, the part of a shard's folder that `merge` reads besides results.ndjson:
 * which shard of which run (run_info.shard), the plan every shard computed, the units
 * this shard read (where their records start in its numbering, how many, their hash),
 * its results file's line count and hash, and its accumulator state (counters, dice,
 * examples) in its own numbering.
 */
export const ShardManifest = lazily(() =>
  z
    .object({
      format: z.literal(SHARD_MANIFEST),
      run_info: RunInfo,
      block: z.number().int().min(1),
      units: z.array(
        z
          .object({
            name: z.string(),
            kind: z.enum(['file', 'url', 'stdin', 'error', 'note']),
            weight: Count.nullable(),
            owner: z.number().int().min(1).nullable(),
            note: SourceNote.optional(),
          })
          .strict(),
      ),
      reads: z.array(z.object({ unit: Count, localStart: Count, records: Count, sha256: z.string().nullable() }).strict()),
      results: z.object({ lines: Count, sha256: z.string() }).strict(),
      records: Count,
      sourceErrors: Count,
      junitPerGame: z.boolean(),
      state: AccumulatorState,
    })
    .strict(),
);
export type ShardManifest = z.infer<typeof ShardManifest>;
