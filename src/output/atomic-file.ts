import { open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createTemporary, removeStaleTemporariesIn } from './temporary.js';

/**
 * One file inside a folder the tool owns (a fetch's game files, its manifest): the
 * bytes go to a marked temporary sibling (`.NAME.tmp-XXXXXX/NAME`, skipped by folder
 * readers, as every output of the tool), are flushed to disk, then renamed over the
 * name. A kill at any moment leaves either no file or the whole file under the name;
 * the temporary a killed run left is removed by the next one (removeStaleTemps).
 * The caller has checked that the folder is its own: nothing here refuses a name.
 */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  // The caller sweeps the folder once (removeStaleTemps), and handles signals itself.
  const temporary = createTemporary(file, { sweep: false, signals: false });
  const tmp = path.join(temporary.dir, path.basename(file));
  try {
    const fh = await open(tmp, 'wx');
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } finally {
    temporary.remove();
  }
}

/** Temporaries of the writer before the shared one (`.NAME.PID.HEX.tmp` files). */
const OLD_TEMP = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/** Removes the temporaries a killed run left in `dir` (only this tool's own, marked, their process gone); returns how many. */
export async function removeStaleTemps(dir: string): Promise<number> {
  let removed = removeStaleTemporariesIn(dir).length;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const n of names) {
    if (!OLD_TEMP.test(n)) continue;
    await unlink(path.join(dir, n)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}
