import type { z as Z } from 'zod';

/**
 * The canonical game record every reader produces and the replayer consumes.
 * Moves are lower-case UCI micro-moves; dice are faces 1–6 (1 pawn … 6 king).
 * This module loads no zod: its schemas are built by `gameRecordSchemas` from the zod
 * module given (game-record-schema.ts, and finalise.ts where a record needs zod's wording),
 * so that worker threads judging good records never load zod.
 */
export const FORMAT_NAMES = ['dicechess-com', 'ingest-wire', 'history', 'csv', 'opening-book', 'ndjson', 'beturanga'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const EVENT_TYPES = ['DOUBLE_OFFER', 'DOUBLE_ACCEPT', 'DOUBLE_DECLINE', 'DRAW_OFFER', 'DRAW_ACCEPT', 'DRAW_DECLINE', 'RESIGN', 'TIMEOUT'] as const;

export const TERMINATIONS = ['king_captured', 'checkmate', 'timeout', 'resign', 'draw_agreement', 'double_declined', 'draw_rule', 'stalemate', 'aborted', 'unknown'] as const;

/** The record's zod schemas, built with the zod module given. */
export function gameRecordSchemas(z: typeof Z) {
  const Side = z.enum(['w', 'b']);

  const Player = z
    .object({
      id: z.string().nullable().default(null),
      name: z.string().nullable().default(null),
      kind: z.enum(['human', 'bot']).nullable().default(null),
      rating: z.number().nullable().default(null),
    })
    .strict();

  const TimeControl = z
    .object({
      kind: z.enum(['unlimited', 'sudden-death', 'fischer', 'per-move']),
      initialMs: z.number().int().nonnegative().nullable().default(null),
      incrementMs: z.number().int().nonnegative().nullable().default(null),
      perMoveMs: z.number().int().nonnegative().nullable().default(null),
    })
    .strict();

  const DieFlags = z.object({ allowed: z.boolean(), used: z.boolean() }).strict();

  const Turn = z
    .object({
      side: Side,
      /** Dice faces; [] for a dialect without dice. */
      dice: z.array(z.number().int().min(1).max(6)),
      /** Whether `dice` is in roll order (needed for fairness checks) or was re-sorted by the source. */
      diceOrder: z.enum(['roll', 'sorted', 'unknown']).default('unknown'),
      /** UCI micro-moves in play order; [] is a pass. */
      moves: z.array(z.string()),
      fenAfter: z.string().nullable().default(null),
      /** Remaining clock of each side after the turn, when recorded. */
      clockMs: z.object({ w: z.number().nullable(), b: z.number().nullable() }).strict().nullable().default(null),
      thinkingMs: z.number().nullable().default(null),
      /** The site's own per-die verdicts, in the order of `dice`, when recorded. */
      diceFlags: z.array(DieFlags).nullable().default(null),
      /** Where in the source this turn came from (line or step), for error messages. */
      location: z.string().nullable().default(null),
    })
    .strict();

  const GameEvent = z
    .object({
      type: z.enum(EVENT_TYPES),
      /** 1-based index of the turn during or before which it happened (turns.length + 1: after the last turn). */
      turn: z.number().int().min(1),
      /** Micro-moves of that turn already played when it happened; null = before the roll. */
      microMove: z.number().int().min(0).nullable().default(null),
      actor: Side.nullable().default(null),
      bank: z.number().nullable().default(null),
      clockMs: z.object({ w: z.number().nullable(), b: z.number().nullable() }).strict().nullable().default(null),
    })
    .strict();

  const Fairness = z
    .object({
      commit: z.string(),
      serverSeed: z.string(),
      clientSeeds: z.object({ white: z.string(), black: z.string() }).strict(),
    })
    .strict();

  const GameRecord = z
    .object({
      id: z.string().min(1),
      /** Site the game was played on, as the source says (e.g. "dicechess.com"). */
      site: z.string().nullable().default(null),
      format: z.enum(FORMAT_NAMES),
      /** Where the record came from: file path or URL, plus line or step. */
      location: z.string().nullable().default(null),
      mode: z.enum(['classic', 'x2']).nullable().default(null),
      /** Start position as FEN (4–6 fields). */
      startFen: z.string(),
      /** Chess960 start number when known. */
      chess960: z.number().int().min(0).max(959).nullable().default(null),
      startedAt: z.string().nullable().default(null),
      /** When the game ended, when the source says (history format's `finishedAt`). Added by the readers (issue 4). */
      finishedAt: z.string().nullable().default(null),
      /** Whether the game was rated, when the source says (history format's `rated`). Added by the readers (issue 4). */
      rated: z.boolean().nullable().default(null),
      players: z.object({ white: Player, black: Player }).strict(),
      timeControl: TimeControl.nullable().default(null),
      stakes: z
        .object({
          initial: z.number().nullable().default(null),
          final: z.number().nullable().default(null),
          currency: z.string().nullable().default(null),
          /**
           * What one player's money changed by when the game was settled, as the source states
           * it (dicechess.com's history list: `moneyDelta`, seen by the listing player's `color`).
           */
          settled: z.object({ side: Side, amount: z.number() }).strict().nullable().default(null),
        })
        .strict()
        .nullable()
        .default(null),
      turns: z.array(Turn),
      events: z.array(GameEvent).default([]),
      result: z.enum(['white', 'black', 'draw']).nullable(),
      termination: z.enum(TERMINATIONS).default('unknown'),
      fairness: Fairness.nullable().default(null),
      /** What the reader normalised, e.g. "dice:letters-alphabetical", "squares:upper-case", "clock:minutes", "castling:king-takes-rook". */
      notes: z.array(z.string()).default([]),
    })
    .strict();
  return { Side, Player, TimeControl, DieFlags, Turn, GameEvent, Fairness, GameRecord };
}

type Schemas = ReturnType<typeof gameRecordSchemas>;
export type Side = Z.infer<Schemas['Side']>;
export type Player = Z.infer<Schemas['Player']>;
export type TimeControl = Z.infer<Schemas['TimeControl']>;
export type Turn = Z.infer<Schemas['Turn']>;
export type GameEvent = Z.infer<Schemas['GameEvent']>;
export type Fairness = Z.infer<Schemas['Fairness']>;
export type GameRecord = Z.infer<Schemas['GameRecord']>;
export type GameRecordInput = Z.input<Schemas['GameRecord']>;

let schemas: Schemas | null = null;

/** This thread's schemas, built once: with zod as `load` gives it, or as the first caller's `load` gave it. */
export function recordSchemas(load: () => typeof Z): Schemas {
  return (schemas ??= gameRecordSchemas(load()));
}
