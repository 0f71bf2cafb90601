import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll } from 'vitest';

/** Under CI=true (or 1) a test that needs a missing program fails instead of skipping. */
export const IN_CI = /^(true|1)$/i.test(process.env.CI ?? '');

/** The first of `names` that is an executable file on PATH or in /usr/games (where Debian puts stockfish); null when none is. */
export function findProgram(names: readonly string[]): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/games'];
  for (const name of names) {
    for (const dir of dirs) {
      const file = join(dir, name);
      try {
        if (!statSync(file).isFile()) continue;
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not there: try the next folder
      }
    }
  }
  return null;
}

/** The one line a test that needs a missing program says. */
export const missingLine = (program: string, install: string): string => `${program} not found on PATH or in /usr/games: install it with \`${install}\``;

/**
 * Call at the top of a test file whose tests need `path` (a program found by findProgram).
 * Found: returns false (run). Missing outside CI: warns once and returns true (skip).
 * Missing under CI=true: returns false and makes every test of the file fail with one line
 * saying what to install.
 */
export function skipWithout(path: string | null, program: string, install: string): boolean {
  if (path !== null) return false;
  const line = missingLine(program, install);
  if (IN_CI) {
    beforeAll(() => {
      throw new Error(`${line} (CI=true: the tests that need it fail instead of skipping)`);
    });
    return false;
  }
  console.warn(`${line}; the tests that need it are skipped here (under CI=true they fail)`);
  return true;
}
