import type { FormatName } from './model/game-record.js';

/** How many characters of a source the detector looks at. */
export const DETECT_CHARS = 64 * 1024;

/**
 * The format of a source from its first characters, by the field names each format
 * uses (JSON family) or its line shape (CSV header, opening-book TSV); null when
 * nothing matches.
 */
export function detectFormat(head: string): FormatName | null {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text === '') return null;
  if (text[0] === '{' || text[0] === '[') {
    if (text.includes('"gameMoveHistoryStateMap"')) return 'dicechess-com';
    // beturanga's server document: a FEN history whose entries end in epoch milliseconds, and timeleft per player.
    if (/"history"\s*:\s*\[\s*"[^"]*\s\d{10,}"/.test(text) || (/"timeleft"\s*:/.test(text) && /"history"\s*:/.test(text))) return 'beturanga';
    if (/"startFen"\s*:/.test(text)) return 'ndjson';
    if (/"(initialDfen|turnNumber|fairness|timeControl)"\s*:/.test(text)) return 'history';
    if (/"(initial_fen|turn_number|white_player|active_color)"\s*:/.test(text)) return 'ingest-wire';
    return null;
  }
  const firstLine = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n')).trim();
  if (/^"?game_id"?\s*,/i.test(firstLine)) return 'csv';
  const book = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#')) ?? '';
  if (/^\S+\/\S+\/\S+\/\S+\/\S+\/\S+\/\S+\/\S+ [wb] \S+ \S+( \d+ \d+)? \S+\t/.test(book)) return 'opening-book';
  return null;
}
