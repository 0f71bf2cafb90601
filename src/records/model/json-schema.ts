import { z } from 'zod';
import { recordSchemas } from './game-record.js';

/** The JSON Schema of one canonical record (a line of the native NDJSON), as read (defaults filled). */
export function recordJsonSchema(): Record<string, unknown> {
  // The schemas are built here, when asked for (the `schema` command), not as the tool loads.
  return {
    ...z.toJSONSchema(recordSchemas(() => z).GameRecord, { io: 'input', target: 'draft-2020-12' }),
    title: 'GameRecord',
    description: 'One recorded dice chess game in the canonical form of dice-dialects (native NDJSON format: one per line).',
  } as Record<string, unknown>;
}
