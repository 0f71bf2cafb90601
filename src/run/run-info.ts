import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { packageRoot } from '../dialects/paths.js';
import { canonicalJson } from '../report/sorted.js';

export function toolVersion(): string {
  try {
    return JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

/** SHA-256 of a local file's bytes (a folder, URL or stdin: null; the per-record locations identify those). */
export async function fileHash(source: string): Promise<string | null> {
  try {
    if (source === '-' || /^https?:\/\//.test(source) || !existsSync(source) || !statSync(source).isFile()) return null;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(source)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return null;
  }
}

/** A short, stable identity of anything JSON: the SHA-256 of its canonical form. */
export const identityHash = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');
