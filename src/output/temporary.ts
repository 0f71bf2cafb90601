import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { temporaryPrefix } from './output-path.js';

/**
 * Temporary siblings of an output (`.NAME.tmp-XXXXXX`), each holding TMP_MARKER with the
 * pid that made it. A run that starts removes its output's temporaries whose maker is
 * dead (kill -9, power loss); SIGINT and SIGTERM remove the live ones before exiting
 * 130 / 143. Only folders with both the name and the marker are ever removed.
 */

export const TMP_MARKER = '.dice-dialects-tmp';
const NAME_TAIL = /^[A-Za-z0-9]{6}$/;

export interface Temporary {
  dir: string;
  /** Forget it: it was renamed into place, or removed. */
  release(): void;
  /** Remove it now. */
  remove(): void;
}

const live = new Set<string>();
let handlersInstalled = false;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

const onSignal = (signal: NodeJS.Signals): void => {
  removeLive();
  process.exit(signal === 'SIGINT' ? 130 : 143);
};

function track(dir: string): void {
  live.add(dir);
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', removeLive);
}

function untrack(dir: string): void {
  live.delete(dir);
  if (live.size > 0 || !handlersInstalled) return;
  handlersInstalled = false;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('exit', removeLive);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temporaries of `target` left by processes that no longer run; returns what it removed. */
export function removeStaleTemporaries(target: string): string[] {
  const parent = dirname(resolve(target));
  const prefix = temporaryPrefix(target);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !NAME_TAIL.test(name.slice(prefix.length))) continue;
    const dir = join(parent, name);
    let marker: { tool?: unknown; pid?: unknown };
    try {
      marker = JSON.parse(readFileSync(join(dir, TMP_MARKER), 'utf8'));
    } catch {
      continue; // Not ours (or not a folder): never touched.
    }
    if (marker.tool !== 'dice-dialects' || typeof marker.pid !== 'number') continue;
    if (marker.pid !== process.pid && isAlive(marker.pid)) continue; // Another run of the same output is still going.
    if (live.has(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** A fresh marked temporary folder beside `target` (same file system, so it can be renamed into place). */
export function createTemporary(target: string): Temporary {
  removeStaleTemporaries(target);
  const dir = mkdtempSync(join(dirname(resolve(target)), temporaryPrefix(target)));
  track(dir);
  writeFileSync(join(dir, TMP_MARKER), `${JSON.stringify({ tool: 'dice-dialects', pid: process.pid, target: resolve(target) })}\n`);
  return {
    dir,
    release: () => untrack(dir),
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
      untrack(dir);
    },
  };
}

/** Drops the temporary marker from a folder that has been published. */
export function dropMarker(dir: string): void {
  try {
    unlinkSync(join(dir, TMP_MARKER));
  } catch {
    // Already gone.
  }
}
