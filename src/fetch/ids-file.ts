import { readFile } from 'node:fs/promises';
import { loadHistoryList } from '../records/formats/dicechess-com/history-list.js';
import { TextSource } from '../records/input/text-source.js';
import type { ListedRow } from './sites/site.js';

/**
 * Game ids for `--ids FILE`: one per line (blank lines and `#` comments skipped), or
 * a history-list JSON (an array of rows, NDJSON rows, or an object holding an array
 * of rows: a saved listing page), whose rows are kept as the games' listing rows.
 */
export async function readIdsFile(file: string): Promise<{ ok: true; rows: ListedRow[] } | { ok: false; message: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { ok: false, message: `--ids ${file}: ${(e as Error).message}` };
  }
  const body = text.replace(/^\uFEFF/, '').trimStart();
  if (body.startsWith('[') || body.startsWith('{')) {
    try {
      const index = await loadHistoryList(TextSource.fromText(file, body));
      if (index.size === 0) return { ok: false, message: `--ids ${file}: a JSON file with no rows holding a "gameId"` };
      return { ok: true, rows: [...index].map(([id, row]) => ({ id, row: row as Record<string, unknown> })) };
    } catch (e) {
      return { ok: false, message: `--ids ${file}: ${(e as Error).message}` };
    }
  }
  const rows: ListedRow[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    if (/\s/.test(line)) return { ok: false, message: `--ids ${file}:${i + 1}: expected one game id per line, got "${line.slice(0, 60)}"` };
    if (seen.has(line)) continue;
    seen.add(line);
    rows.push({ id: line, row: null });
  }
  if (rows.length === 0) return { ok: false, message: `--ids ${file}: no game ids in it` };
  return { ok: true, rows };
}
