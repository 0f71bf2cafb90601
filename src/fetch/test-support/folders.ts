import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Manifest } from '../manifest.js';

/** Temp folders removed after each test file. */
export class TempDirs {
  private readonly dirs: string[] = [];
  make(prefix = 'fetch-'): string {
    const d = mkdtempSync(path.join(tmpdir(), prefix));
    this.dirs.push(d);
    return d;
  }
  removeAll(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

export const readManifestFile = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

/** Every file below `dir` (dot-files too), as relative paths. */
export function allFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) visit(p);
      else out.push(path.relative(dir, p));
    }
  };
  visit(dir);
  return out.sort();
}

export const sha256File = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
