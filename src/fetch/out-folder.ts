import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Manifest, readManifest } from './manifest.js';

/**
 * The --out folder: new, empty, or a previous fetch's (its manifest says so). Any
 * other folder is refused, since the tool never touches files it did not create.
 * A lock file keeps two runs out of one folder; a lock left by a killed run (its
 * process gone) is taken over.
 */
export const LOCK_NAME = '.fetch.lock';

export type Prepared = { ok: true; manifest: Manifest | null; release: () => Promise<void> } | { ok: false; message: string };

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
};

export async function prepareOut(dir: string): Promise<Prepared> {
  const info = await stat(dir).catch(() => null);
  if (info && !info.isDirectory()) return { ok: false, message: `--out ${dir} is a file, not a folder` };
  if (!info) await mkdir(dir, { recursive: true });
  const read = await readManifest(dir);
  if (read.kind === 'foreign') return { ok: false, message: `--out ${dir} holds a manifest.json that is not a fetch manifest (${read.why}); not touching it` };
  if (read.kind === 'none') {
    const names = (await readdir(dir)).filter((n) => n !== LOCK_NAME);
    if (names.length > 0) return { ok: false, message: `--out ${dir} holds files but no fetch manifest.json; name a new or empty folder (or one a fetch made)` };
  }
  const lock = path.join(dir, LOCK_NAME);
  for (let tries = 0; ; tries++) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST' || tries > 0) return { ok: false, message: `--out ${dir}: cannot take the lock ${LOCK_NAME}: ${(e as Error).message}` };
      const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) return { ok: false, message: `--out ${dir} is in use by another fetch (process ${pid})` };
      await unlink(lock).catch(() => undefined); // left by a run that was killed
    }
  }
  return { ok: true, manifest: read.kind === 'ok' ? read.manifest : null, release: () => unlink(lock).catch(() => undefined) };
}
