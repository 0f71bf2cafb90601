import { z } from 'zod';
import { lazily } from '../lazily.js';

/**
 * One line of `results.ndjson`: a game judged under one dialect. This is the contract
 * between the replayer (writes it), the reports (read it, never re-play) and `score`.
 */
export const Finding = lazily(() =>
  z
    .object({
      /** Rule id from the registry (src/rules/rule-ids.ts), e.g. "maximum.fewer-dice". */
      rule: z.string(),
      /** 1-based index of the turn in the record, passes included; null for game-level findings before any turn. */
      turn: z.number().int().min(1).nullable(),
      /** 0-based micro-move index in that turn, or null (the turn or the game as a whole). */
      microMove: z.number().int().min(0).nullable(),
      /** DFEN before the offending micro-move (dice still to play in field 7). */
      dfen: z.string().nullable(),
      /**
       * DFEN at the start of the turn (its dice in field 7), where the finding lies past the
       * turn's first micro-move: a `check` of the whole recorded turn starts here (a turn that
       * stops early is judged from its start, not from where it stopped).
       */
      turnDfen: z.string().optional(),
      /** Dice of the turn as letters cased by side, e.g. "PNB". */
      dice: z.string().nullable(),
      /** The recorded micro-moves of the turn (or the recorded value for non-move findings). */
      recorded: z.array(z.string()),
      /** The dialect's legal alternatives from that point: full continuations, [] = pass. */
      allowed: z.array(z.array(z.string())),
      message: z.string(),
      /** Where in the input: file:line or url#step. */
      location: z.string().nullable().default(null),
    })
    .strict(),
);
export type Finding = z.infer<typeof Finding>;

// A value of its own module: the judge needs the cap without the schemas (zod) of this one.
export { MAX_FINDINGS } from './findings-cap.js';

export const GameResultLine = lazily(() =>
  z
    .object({
      id: z.string(),
      dialect: z.string(),
      /** `faulty`: the record's own fault hides what the rules would need (a recording fault, never a rules divergence). */
      status: z.enum(['conforming', 'diverging', 'unreadable', 'faulty']),
      findings: z.array(Finding),
      /** Findings of the game beyond the MAX_FINDINGS kept in `findings` (absent when none were dropped). */
      moreFindings: z.number().int().min(1).optional(),
      /** Position of the record in the input stream (0-based), for stable ordering. */
      index: z.number().int().min(0),
      source: z.string().nullable().default(null),
      turns: z.number().int().min(0).nullable().default(null),
      /**
       * Only on a summarising unreadable entry: how many identical unreadable records (same
       * source, dialect, code and message) it stands for, beyond the ones written in full.
       */
      repeats: z.number().int().min(1).optional(),
    })
    .strict(),
);
export type GameResultLine = z.infer<typeof GameResultLine>;

/**
 * A finding in its place: one finding of a result line, with the line's `dialect`, `id`, `source`
 * and `index`, the finding's `rule`, and whether it was the line's first. The summary keeps one
 * per (dialect, rule) as its class's reproduction (`Summary.examples`); every field is the
 * line's or the finding's own, so neither shape is written twice.
 */
export const Example = lazily(() =>
  z
    .object({
      dialect: GameResultLine.shape.dialect,
      rule: Finding.shape.rule,
      id: GameResultLine.shape.id,
      source: z.string().nullable(),
      index: GameResultLine.shape.index,
      /** True when the finding was the game's first (so it is the class's own example). */
      first: z.boolean(),
      finding: Finding,
      /** The `check` command that shows the finding, judged to find the same rule (run/reproduction.ts); null: none does; absent: a summary that does not say. */
      reproduce: z.string().nullable().optional(),
    })
    .strict(),
);
export type Example = z.infer<typeof Example>;
