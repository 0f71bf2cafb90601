import path from 'node:path';
import { boundedFileName } from '../output/file-name.js';
import { GAMES_DIR } from './manifest.js';

/**
 * Where a game is stored: `games/<id>.json`, the id kept as it is when it is a safe
 * file name, else percent-encoded, and shortened with a hash when it would pass the
 * file-name limit (output/file-name.ts), so no id can reach outside the folder, hide
 * as a dot-file or block the folder. The full id is in the manifest and in the file.
 */
export function gameFile(id: string): string {
  return path.posix.join(GAMES_DIR, boundedFileName(id, '.json'));
}
