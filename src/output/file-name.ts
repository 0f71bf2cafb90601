import { createHash } from 'node:crypto';

/**
 * A file name made from data (a game id, a listed name), bounded: file systems refuse
 * names over 255 bytes (ENAMETOOLONG), and a name the data chose must never block a
 * folder. A name of safe characters within the bound is kept as it is; any other is
 * percent-encoded; one still too long keeps a readable head and ends in `~` and a hash
 * of the whole name (`~` is never kept verbatim and `%` never follows it, so the three
 * kinds never meet). The full name belongs in a record beside the file (a manifest).
 */
export const MAX_NAME_BYTES = 200;

const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

/** `stem` + `ext` as a file name of at most MAX_NAME_BYTES bytes, one name per stem. */
export function boundedFileName(stem: string, ext: string): string {
  const room = MAX_NAME_BYTES - Buffer.byteLength(ext);
  if (SAFE.test(stem) && stem.length <= room) return `${stem}${ext}`;
  const encoded = percentEncoded(stem);
  if (encoded.length <= room) return `${encoded}${ext}`;
  const hash = createHash('sha256').update(stem, 'utf8').digest('hex').slice(0, 32);
  // The head is cut before a %XX escape, never inside one.
  const head = encoded.slice(0, room - hash.length - 1).replace(/%[0-9A-F]?$/, '');
  return `${head}~${hash}${ext}`;
}
