import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** The files an infer run folder holds; a folder holding anything else is not one of ours. */
export const INFER_FILES = ['infer.json', 'report.md', 'report.html'] as const;

/** May `--out` be (re)written: absent, or an infer run folder this tool wrote? */
export function outDirProblem(dir: string): string | null {
  const target = resolve(dir);
  if (!existsSync(target)) return null;
  if (existsSync(join(target, 'infer.json'))) return null;
  return `--out ${dir} exists and is not an infer run folder (no infer.json): refusing to replace it`;
}

/**
 * Writes the run folder whole or not at all: into a temporary sibling, then renamed
 * over the old run, which is kept as `<out>.previous` until the new one is in place.
 */
export async function publishRun(dir: string, files: Record<(typeof INFER_FILES)[number], string>): Promise<void> {
  const target = resolve(dir);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tmp = await mkdtemp(join(parent, `.${basename(target)}.tmp-`));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(tmp, name), text);
    await chmod(tmp, 0o755);
    const previous = `${target}.previous`;
    let moved = false;
    if (existsSync(target)) {
      await rm(previous, { recursive: true, force: true });
      await rename(target, previous);
      moved = true;
    }
    try {
      await rename(tmp, target);
    } catch (error) {
      if (moved) await rename(previous, target);
      throw error;
    }
    await rm(previous, { recursive: true, force: true });
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}
