import { type FormatModule, type Sidecar, jsonFormat } from '../format.js';
import { type HistoryIndex, loadHistoryList } from './history-list.js';
import { parseStateMap, parseStateMapBytes } from './read.js';
import { makeStateMap } from './write.js';

export { loadHistoryList, makeHistoryRow, writeHistoryList, type HistoryIndex } from './history-list.js';

/** The player's history list: results, players, ratings and clocks by game id (`--history-list`). */
const historyList: Sidecar<HistoryIndex> = {
  name: 'history list',
  files: (opts) => opts.historyList,
  load: loadHistoryList,
  empty: () => new Map(),
  merge: (into, later) => {
    for (const [id, row] of later) into.set(id, row);
    return into;
  },
  isEmpty: (index) => index.size === 0,
  emptyText: 'game rows (gameId): no game gets metadata from it',
};

/** A. One game per line: `{"gameId": …, "gameMoveHistoryStateMap": {…}}`. */
export const dicechessComFormat: FormatModule<HistoryIndex> = jsonFormat<HistoryIndex>(
  'dicechess-com',
  (doc, place, notes, attempt, ctx) => parseStateMap(doc, place, notes, attempt, ctx.sidecar),
  (r) => `${JSON.stringify(makeStateMap(r))}\n`,
  (bytes, start, end, place, notes, attempt, ctx) => parseStateMapBytes(bytes, start, end, place, notes, attempt, ctx.sidecar),
  historyList,
);
