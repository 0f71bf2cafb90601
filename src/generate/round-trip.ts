import { FORMATS } from '../records/formats/index.js';
import type { FormatName, GameRecord } from '../records/model/game-record.js';
import { TextSource } from '../records/input/text-source.js';
import type { Finding } from '../replay/result.js';
import { type PreparedDialect, replayGame } from '../replay/replay-game.js';

/**
 * A record as the replayer will see it: written in `format` by the records writer and
 * read back by the same reader `replay` uses (in memory, no history list). Null with a
 * reason when it cannot be read back.
 */
export async function readBack(format: FormatName, record: GameRecord, name = 'generated'): Promise<{ record: GameRecord } | { problem: string }> {
  const module = FORMATS[format];
  const text = (module.header ?? '') + module.make(record);
  for await (const draft of module.read(TextSource.fromText(name, text), { sidecar: null })) {
    if (draft.kind === 'record') return { record: draft.record };
    if (draft.kind === 'unreadable') return { problem: `${draft.code}: ${draft.message}` };
  }
  return { problem: 'the writer produced no record' };
}

/** The replayer's first finding for a record after a round trip through `format` (null: conforming). */
export async function firstFindingAfterRoundTrip(
  format: FormatName,
  record: GameRecord,
  dialect: PreparedDialect,
): Promise<{ finding: Finding | null } | { problem: string }> {
  const back = await readBack(format, record);
  if ('problem' in back) return back;
  const line = replayGame(back.record, dialect, 0);
  return { finding: line.findings[0] ?? null };
}
