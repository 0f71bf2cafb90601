import { z } from 'zod';

/**
 * The JSON Schema of a beturanga server game document as this tool reads it (docs/beturanga.md):
 * the fields it uses, each described; other fields the server writes (sessions, rake, chat) are allowed and ignored.
 */
// Built when the `schema` command first asks for it, not as the readers load (a few ms of every start).
const beturangaDocument = () => {
  const Entry = z.string().describe('A state: "board side castling en-passant dice epoch-ms". Dice: "-" before the roll, then the dice still to play (upper case White, lower case Black).');
  return z
    .looseObject({
      _id: z.union([z.string(), z.looseObject({ $oid: z.string() })]).optional().describe('The game id: ObjectId("…") text, {"$oid"}, or plain text.'),
      status: z.string().optional().describe('"finished" for a finished game.'),
      fen: z.string().optional().describe('The final position (the last history entry).'),
      players: z
        .array(
          z.looseObject({
            color: z.enum(['w', 'b']),
            user: z.unknown().optional().describe('The player id (an ObjectId).'),
            timeleft: z.number().nullable().optional().describe('The clock after the last turn, in milliseconds.'),
            bot: z.boolean().optional(),
          }),
        )
        .optional(),
      settings: z
        .looseObject({
          timeControl: z.looseObject({ time: z.number().describe('minutes'), increment: z.number().describe('seconds') }).optional(),
          fen: z.string().optional().describe('The start: "board - castling en-passant -" (side written "-": White moves first).'),
          bet: z.number().optional(),
          doubling: z.boolean().optional(),
          rounds: z.number().optional(),
        })
        .optional(),
      doubling: z.looseObject({ multiplier: z.number() }).optional(),
      history: z.array(Entry).min(1).describe('One entry per state: a "-" entry starts each turn, the roll follows, then one entry per micro-move; the turn\'s last micro-move shows in the next side\'s "-" entry.'),
      moves: z.array(z.looseObject({ color: z.enum(['w', 'b']), move: z.string().describe('UCI'), date: z.unknown().optional() })),
      created: z.unknown().optional().describe('ISODate("…") text, {"$date"} or ISO text.'),
      result: z.looseObject({ winner: z.enum(['w', 'b']).nullable().optional(), cause: z.string().nullable().optional().describe('capture, resign, timeout, draw, double, abort') }).optional(),
    })
    .describe('A beturanga server game document.');
};

export function beturangaJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(beturangaDocument(), { target: 'draft-2020-12' }), title: 'beturanga server game document' } as Record<string, unknown>;
}
