import type { GameRecord } from '../../model/game-record.js';
import { type FormatModule, jsonFormat } from '../format.js';
import { parseBeturanga } from './read.js';
import { makeBeturanga } from './write.js';

/** The document of the record last asked about (`unwritable` then `make` ask about the same one). */
let last: { record: GameRecord; text: string | null; why: string | null } | null = null;

function written(r: GameRecord): { text: string | null; why: string | null } {
  if (last?.record !== r) {
    try {
      last = { record: r, text: `${JSON.stringify(makeBeturanga(r))}\n`, why: null };
    } catch (e) {
      last = { record: r, text: null, why: `a beturanga history needs every move played on the board: ${(e as Error).message}` };
    }
  }
  return last;
}

/** beturanga's server game documents: one JSON document per file, or NDJSON (docs/beturanga.md). */
export const beturangaFormat: FormatModule = {
  ...jsonFormat('beturanga', parseBeturanga, (r) => written(r).text ?? ''),
  unwritable: (r) => written(r).why,
};
