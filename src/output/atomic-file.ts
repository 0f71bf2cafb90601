import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Atomic files: the bytes go to a hidden temporary sibling (`.NAME.PID.HEX.tmp`,
 * skipped by folder readers), are flushed to disk, then renamed over the name. A
 * kill at any moment leaves either no file or the whole file under the name.
 */
const TEMP = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

export function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempName(file);
  const fh = await open(tmp, 'wx');
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fh.close();
  try {
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Removes temporaries a killed run left in `dir` (only names of the pattern above: this tool's own). */
export async function removeStaleTemps(dir: string): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    if (!TEMP.test(n)) continue;
    await unlink(path.join(dir, n)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}
