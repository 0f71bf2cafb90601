import { HistoryError, openStore, readySchema, recordRun, type Store } from '../history/index.js';
import { UsageError } from './usage-error.js';

/** `--history DB` of replay and merge: the run they write is recorded there too. */
export const historyOption = { type: 'string', describe: 'Record the run into this history database (a file or a postgres:// URL) once it is written' } as const;

const words = (error: unknown): never => {
  if (error instanceof HistoryError) throw new UsageError(`--history: ${error.message}`, error.code);
  throw error;
};

/** Before the run: the database opens and its schema is one this tool writes (a bad URL fails now, not after an hour of replay). */
export async function checkHistory(db: string): Promise<void> {
  let store: Store | null = null;
  try {
    store = await openStore(db);
    await readySchema(store, 'write');
  } catch (error) {
    words(error);
  } finally {
    await store?.close();
  }
}

/** After the run: its folder into the history (one transaction); the line says which run it became. */
export async function recordInto(db: string, folder: string): Promise<string> {
  let store: Store | null = null;
  try {
    store = await openStore(db);
    const r = await recordRun(store, folder);
    return r.existed ? `history: ${folder} was already recorded as run ${r.run}` : `history: recorded ${folder} as run ${r.run} in ${store.shown}`;
  } catch (error) {
    return words(error);
  } finally {
    await store?.close();
  }
}
