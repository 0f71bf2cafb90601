import { PG_URL_VAR, startThrowawayPostgres } from './postgres.js';

/**
 * vitest globalSetup: when no server is given (DICE_DIALECTS_TEST_PG) and Debian's PostgreSQL
 * binaries are here, a throwaway cluster serves the run and is stopped after it. Without
 * either, the tests that need PostgreSQL say so (and fail under CI=true).
 */
export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env[PG_URL_VAR]) return undefined;
  let started;
  try {
    started = await startThrowawayPostgres();
  } catch (error) {
    process.stderr.write(`could not start a throwaway PostgreSQL: ${(error as Error).message}\n`);
    return undefined;
  }
  if (started === null) return undefined;
  process.env[PG_URL_VAR] = started.url;
  return () => {
    delete process.env[PG_URL_VAR];
    started.stop();
  };
}
