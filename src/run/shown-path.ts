import { isAbsolute, relative, resolve } from 'node:path';
import { packageRoot } from '../dialects/index.js';

const inside = (base: string, file: string): string | null => {
  const rel = relative(base, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : null;
};

/**
 * A file as reports show it: relative to the tool's folder (the bundled dialects), else
 * to the working folder, else absolute. Reports are committed and shared, and the
 * absolute path of the machine that made them means nothing elsewhere.
 */
export function shownPath(file: string): string {
  const abs = resolve(file);
  return inside(packageRoot(), abs) ?? inside(process.cwd(), abs) ?? abs;
}
