import type { TextSource } from '../../input/text-source.js';
import type { Draft } from '../../items.js';
import { type FormatModule, type ReadContext, readJsonDocs } from '../format.js';
import { convertStateMap } from './read.js';
import { toStateMap } from './write.js';

export { loadHistoryList, toHistoryRow, writeHistoryList, type HistoryIndex } from './history-list.js';

async function* read(src: TextSource, ctx: ReadContext): AsyncGenerator<Draft> {
  yield* readJsonDocs(src, (doc, place, notes, attempt) => convertStateMap(doc, place, notes, attempt, ctx.history));
}

/** A. One game per line: `{"gameId": …, "gameMoveHistoryStateMap": {…}}`. */
export const dicechessComFormat: FormatModule = {
  name: 'dicechess-com',
  read,
  format: (r) => `${JSON.stringify(toStateMap(r))}\n`,
};
