import path from 'node:path';
import { GAMES_DIR } from './manifest.js';

/**
 * Where a game is stored: `games/<id>.json`, the id kept as it is when it is a safe
 * file name (dicechess.com's reader takes a UUID file name as the game id), else
 * percent-encoded, so no id can reach outside the folder or hide as a dot-file.
 */
export function gameFile(id: string): string {
  const safe = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(id) ? id : [...Buffer.from(id, 'utf8')].map((b) => (/[A-Za-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('').slice(0, 600);
  return path.posix.join(GAMES_DIR, `${safe}.json`);
}
