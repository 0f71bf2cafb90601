import type { FormatName, GameRecord } from './model/game-record.js';
import { FORMATS } from './formats/index.js';
import { writeText } from './output/write-text.js';

/**
 * Writes records in any of the six formats, streaming with backpressure: NDJSON-like
 * formats one line per record (dicechess.com state maps one document per line), CSV
 * with one header, the opening book one line per record (its first turn). A record the
 * format has no text for (a game with no turn, in CSV or a book) is handed to
 * `onUnwritten` with the reason, and not written.
 */
export async function writeRecords(
  format: FormatName,
  records: AsyncIterable<GameRecord> | Iterable<GameRecord>,
  out: NodeJS.WritableStream,
  onUnwritten?: (record: GameRecord, reason: string) => void,
): Promise<void> {
  const module = FORMATS[format];
  if (module.header) await writeText(out, module.header);
  // Batch small lines into larger writes: one write per record is slow on pipes.
  let batch = '';
  for await (const record of records) {
    const reason = module.unwritable?.(record) ?? null;
    if (reason !== null) {
      onUnwritten?.(record, reason);
      continue;
    }
    batch += module.make(record);
    if (batch.length >= 64 * 1024) {
      await writeText(out, batch);
      batch = '';
    }
  }
  await writeText(out, batch);
}

/** One record as the text of that format (the CSV header included). */
export function makeRecordText(format: FormatName, record: GameRecord): string {
  const module = FORMATS[format];
  return (module.header ?? '') + module.make(record);
}
