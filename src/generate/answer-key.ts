import { z } from 'zod';
import { lazily } from '../lazily.js';

/**
 * The answer key of a corpus with planted divergences (`PATH.key.json`): for every
 * planted game, the first finding the replayer must report under the generating
 * dialect. Conventions are those of results.ndjson (src/replay/result.ts): `turn` is
 * the 1-based index of the turn in the record, passes included (null: a game-level
 * finding before any turn); `microMove` is the 0-based micro-move index or null (the
 * turn or the game as a whole).
 */
export const ExpectedFinding = lazily(() =>
  z
    .object({
      rule: z.string().min(1),
      turn: z.number().int().min(1).nullable(),
      microMove: z.number().int().min(0).nullable(),
      /** What was planted, for people reading the key (not scored). */
      note: z.string().optional(),
    })
    .strict(),
);
export type ExpectedFinding = z.infer<typeof ExpectedFinding>;

export const AnswerKey = lazily(() =>
  z
    .object({
      kind: z.literal('dice-dialects/answer-key'),
      version: z.literal(1),
      /** The dialect the corpus was generated (and must be replayed) under. */
      dialect: z.string(),
      format: z.string(),
      seed: z.string(),
      games: z.number().int().min(0),
      /** Requested planting rate per rule id. */
      inject: z.record(z.string(), z.number()),
      /** Planted games per rule id. */
      planted: z.record(z.string(), z.number().int()),
      /** Game id → the first finding the replayer must report. Games not listed must conform. */
      expected: z.record(z.string(), ExpectedFinding),
      /**
       * Ids of every record of the corpus, in order (opening book: `<file name>:<line>`), so a
       * run over several corpora scores only this one's games. Absent: score every line of the dialect.
       */
      records: z.array(z.string()).optional(),
    })
    .strict(),
);
export type AnswerKey = z.infer<typeof AnswerKey>;

/** Reads a key: the full object above, or a bare map of game id → expected finding. */
export function parseAnswerKey(text: string, fallbackDialect: string | null = null): { ok: true; key: AnswerKey } | { ok: false; message: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `the key is not JSON: ${(error as Error).message}` };
  }
  const full = AnswerKey.safeParse(data);
  if (full.success) return { ok: true, key: full.data };
  const bare = z.record(z.string(), ExpectedFinding).safeParse(data);
  if (bare.success && !(data as Record<string, unknown>).kind) {
    const planted: Record<string, number> = {};
    for (const e of Object.values(bare.data)) planted[e.rule] = (planted[e.rule] ?? 0) + 1;
    return {
      ok: true,
      key: {
        kind: 'dice-dialects/answer-key',
        version: 1,
        dialect: fallbackDialect ?? '',
        format: '',
        seed: '',
        games: 0,
        inject: {},
        planted,
        expected: bare.data,
      },
    };
  }
  const issue = full.error.issues[0];
  return { ok: false, message: `not an answer key: ${issue.path.join('.') || '(top)'}: ${issue.message}` };
}

/** Writes a key as stable, diffable JSON (games in corpus order, as inserted). */
export function serializeAnswerKey(key: AnswerKey): string {
  const planted = Object.fromEntries(Object.entries(key.planted).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${JSON.stringify({ ...key, planted }, null, 2)}\n`;
}
