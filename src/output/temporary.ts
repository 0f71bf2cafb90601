import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { temporaryPrefix } from './output-path.js';

/**
 * Temporary siblings of an output (`.NAME.tmp-XXXXXX`), each holding TMP_MARKER with the
 * pid that made it. A run that starts removes its output's temporaries whose maker is
 * dead (kill -9, power loss); SIGINT, SIGTERM and SIGHUP remove the live ones before
 * exiting 130 / 143 / 129. Only folders with both the name and the marker are ever
 * removed. A temporary may hold the original output parked under PARKED while the new
 * one is swapped in: if the output is missing, the parked one goes back instead.
 */

export const TMP_MARKER = '.dice-dialects-tmp';
export const PARKED = 'previous';

/** Puts a parked original back when the swap did not finish. */
function unpark(dir: string, target: string): void {
  if (existsSync(join(dir, PARKED)) && !existsSync(target)) renameSync(join(dir, PARKED), target);
}
const NAME_TAIL = /^[A-Za-z0-9]{6}$/;

export interface Temporary {
  dir: string;
  /** Forget it: it was renamed into place, or removed. */
  release(): void;
  /** Remove it now. */
  remove(): void;
}

/** Live temporaries, each with what to do before it is removed on a signal (put a parked run back). */
const live = new Map<string, (() => void) | null>();
let handlersInstalled = false;
const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

function removeLive(): void {
  for (const [dir, rescue] of live) {
    try {
      rescue?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  live.clear();
}

const onSignal = (signal: NodeJS.Signals): void => {
  removeLive();
  process.exit(SIGNALS[signal as keyof typeof SIGNALS] ?? 1);
};

function track(dir: string, rescue: (() => void) | null): void {
  live.set(dir, rescue);
  if (handlersInstalled) return;
  handlersInstalled = true;
  for (const s of Object.keys(SIGNALS)) process.on(s, onSignal);
  process.on('exit', removeLive);
}

function untrack(dir: string): void {
  live.delete(dir);
  if (live.size > 0 || !handlersInstalled) return;
  handlersInstalled = false;
  for (const s of Object.keys(SIGNALS)) process.off(s, onSignal);
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
    unpark(dir, resolve(target));
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/**
 * A fresh marked temporary folder beside `target` (same file system, so it can be
 * renamed into place). Removed on a signal or exit, a parked original put back first.
 */
export function createTemporary(target: string): Temporary {
  removeStaleTemporaries(target);
  const dir = mkdtempSync(join(dirname(resolve(target)), temporaryPrefix(target)));
  track(dir, () => unpark(dir, resolve(target)));
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
