import { type FormatModule, jsonFormat } from '../format.js';
import { convertStateMap, convertStateMapBytes } from './read.js';
import { toStateMap } from './write.js';

export { loadHistoryList, toHistoryRow, writeHistoryList, type HistoryIndex } from './history-list.js';

/** A. One game per line: `{"gameId": …, "gameMoveHistoryStateMap": {…}}`. */
export const dicechessComFormat: FormatModule = jsonFormat(
  'dicechess-com',
  (doc, place, notes, attempt, ctx) => convertStateMap(doc, place, notes, attempt, ctx.history),
  (r) => `${JSON.stringify(toStateMap(r))}\n`,
  (bytes, start, end, place, notes, attempt, ctx) => convertStateMapBytes(bytes, start, end, place, notes, attempt, ctx.history),
);
