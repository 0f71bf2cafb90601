import type { GameRecord } from '../../model/game-record.js';
import { type Obj, isObj } from '../../fields.js';
import { jsonValues, parseJson } from '../../input/json-values.js';
import type { TextSource } from '../../input/text-source.js';
import { SourceError } from '../../input/source-error.js';
import { writeText } from '../../output/write-text.js';

/**
 * dicechess.com game metadata from the player's history list (`POST
 * /api/player/history`): rows with `gameId, color, whiteId, blackId, whiteRating,
 * blackRating, timeLimit, timeBonus, allowDoubling, result, startTime, currency,
 * moneyDelta`. Accepted as a JSON array, NDJSON rows, or pages holding an array
 * (`{"content": [...]}` and the like). Kept whole in memory: it is one small row per game.
 */
export type HistoryIndex = Map<string, Obj>;

export async function loadHistoryList(src: TextSource): Promise<HistoryIndex> {
  const index: HistoryIndex = new Map();
  const add = (row: unknown): void => {
    if (isObj(row) && (typeof row.gameId === 'string' || typeof row.gameId === 'number')) index.set(String(row.gameId), row);
  };
  for await (const { text, line, tooLong } of jsonValues(src)) {
    if (tooLong !== undefined) throw new SourceError('record.too-large', `history list ${src.name}:${line} holds a document of ${tooLong} characters, more than one read may take`);
    const parsed = parseJson(text);
    if (!parsed.ok) throw new SourceError('record.bad-json', `history list ${src.name}:${line} is not valid JSON: ${parsed.message}`);
    const v = parsed.value;
    if (Array.isArray(v)) v.forEach(add);
    else if (isObj(v) && 'gameId' in v) add(v);
    else if (isObj(v)) for (const x of Object.values(v)) if (Array.isArray(x)) x.forEach(add);
  }
  if (src.failure) throw src.failure;
  return index;
}

/** Result words are the listing player's (`color`); white/black are absolute. */
export function historyResult(row: Obj): 'white' | 'black' | 'draw' | null {
  const r = String(row.result ?? '').trim().toUpperCase();
  const color = String(row.color ?? '').trim().toUpperCase();
  if (r === '') return null;
  if (r === 'DRAW' || r === 'TIE' || r === '0') return 'draw';
  if (r === 'WHITE' || r === 'WHITE_WIN') return 'white';
  if (r === 'BLACK' || r === 'BLACK_WIN') return 'black';
  const won = /^(WIN|WON|VICTORY|1)$/.test(r) ? true : /^(LOSS|LOSE|LOST|DEFEAT|-1)$/.test(r) ? false : null;
  if (won === null || (color !== 'WHITE' && color !== 'BLACK')) return null;
  return (color === 'WHITE') === won ? 'white' : 'black';
}

const numericId = (id: string | null): number | string | null => (id !== null && /^-?\d+$/.test(id) ? Number(id) : id);

/** The history-list row of a record, seen by the player whose settlement it holds, else by the white player (for writers of corpora). */
export function makeHistoryRow(r: GameRecord): Obj {
  const tc = r.timeControl;
  const settled = r.stakes?.settled ?? null;
  const seenBy = settled?.side ?? 'w';
  const won = r.result === null || r.result === 'draw' ? null : r.result === (seenBy === 'w' ? 'white' : 'black');
  return {
    gameId: r.id,
    color: seenBy === 'w' ? 'WHITE' : 'BLACK',
    whiteId: numericId(r.players.white.id),
    blackId: numericId(r.players.black.id),
    whiteRating: r.players.white.rating,
    blackRating: r.players.black.rating,
    timeLimit: tc?.initialMs == null ? null : tc.initialMs / 1000,
    timeBonus: tc?.incrementMs == null ? (tc ? 0 : null) : tc.incrementMs / 1000,
    allowDoubling: r.mode === null ? null : r.mode === 'x2',
    result: r.result === null ? null : r.result === 'draw' ? 'DRAW' : won ? 'WIN' : 'LOSS',
    startTime: r.startedAt,
    currency: r.stakes?.currency ?? null,
    // Only what the record says was settled: a stake is not what a player won or lost (a decline's cost, a site's fee).
    moneyDelta: settled?.amount ?? null,
  };
}

/** A history list as one JSON array, written row by row. */
export async function writeHistoryList(records: AsyncIterable<GameRecord> | Iterable<GameRecord>, out: NodeJS.WritableStream): Promise<void> {
  let first = true;
  await writeText(out, '[');
  for await (const r of records) {
    await writeText(out, `${first ? '\n' : ',\n'}${JSON.stringify(makeHistoryRow(r))}`);
    first = false;
  }
  await writeText(out, '\n]\n');
}
