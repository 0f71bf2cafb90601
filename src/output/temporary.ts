import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
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
    } catch {
      // The parked original stays in the temporary; the next run's sweep puts it back.
      continue;
    }
    // A file the writer's thread was still opening can land inside while the folder is
    // emptied (ENOTEMPTY): try again, and never let one folder stop the others or the exit.
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // Left with its marker: the next run of the same output sweeps it (its maker is dead).
    }
  }
  live.clear();
  quiet.clear();
}

const onSignal = (signal: NodeJS.Signals): void => {
  try {
    removeLive();
  } finally {
    process.exit(SIGNALS[signal as keyof typeof SIGNALS] ?? 1);
  }
};

/** Temporaries of a command that handles signals itself (fetch saves its manifest first): removed at exit only. */
const quiet = new Set<string>();

function track(dir: string, rescue: (() => void) | null, signals: boolean): void {
  live.set(dir, rescue);
  if (!signals) quiet.add(dir);
  if (!handlersInstalled) {
    handlersInstalled = true;
    process.on('exit', removeLive);
  }
  if (signals && !signalHandlers) {
    signalHandlers = true;
    for (const s of Object.keys(SIGNALS)) process.on(s, onSignal);
  }
}
let signalHandlers = false;

function untrack(dir: string): void {
  live.delete(dir);
  quiet.delete(dir);
  if (signalHandlers && live.size === quiet.size) {
    signalHandlers = false;
    for (const s of Object.keys(SIGNALS)) process.off(s, onSignal);
  }
  if (live.size > 0 || !handlersInstalled) return;
  handlersInstalled = false;
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
  return sweep(dirname(resolve(target)), temporaryPrefix(target));
}

/** Removes every temporary in `dir` left by a process that no longer runs (a killed fetch's game files). */
export function removeStaleTemporariesIn(dir: string): string[] {
  return sweep(resolve(dir), '.');
}

function sweep(parent: string, prefix: string): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const at = name.lastIndexOf('.tmp-');
    if (!name.startsWith(prefix) || at < 1 || !NAME_TAIL.test(name.slice(at + 5))) continue;
    const dir = join(parent, name);
    let marker: { tool?: unknown; pid?: unknown; target?: unknown };
    try {
      marker = JSON.parse(readFileSync(join(dir, TMP_MARKER), 'utf8'));
    } catch {
      // A kill between making the folder and writing its marker leaves it empty, or with a
      // torn marker alone: nothing of anyone's is in it, so it goes. Anything else is not ours.
      if (!live.has(dir) && removeUnmarked(dir)) removed.push(dir);
      continue;
    }
    if (marker.tool !== 'dice-dialects' || typeof marker.pid !== 'number') continue;
    if (marker.pid !== process.pid && isAlive(marker.pid)) continue; // Another run of the same output is still going.
    if (live.has(dir)) continue;
    const target = typeof marker.target === 'string' && dirname(marker.target) === parent ? marker.target : join(parent, name.slice(1, at));
    unpark(dir, target);
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

function removeUnmarked(dir: string): boolean {
  try {
    const entries = readdirSync(dir);
    if (entries.length > 1 || (entries.length === 1 && entries[0] !== TMP_MARKER)) return false;
    if (entries.length === 1) unlinkSync(join(dir, TMP_MARKER));
    rmdirSync(dir); // Fails, and so keeps it, if anything appeared meanwhile.
    return true;
  } catch {
    return false;
  }
}

export interface TemporaryOptions {
  /** Remove the stale temporaries of the same target first (default true; a caller that sweeps the folder once passes false). */
  sweep?: boolean;
  /** Remove it and exit on SIGINT, SIGTERM, SIGHUP (default true; a command with its own handlers passes false: it is removed at exit). */
  signals?: boolean;
}

/**
 * A fresh marked temporary folder beside `target` (same file system, so it can be
 * renamed into place). Removed on a signal or exit, a parked original put back first.
 */
export function createTemporary(target: string, opts: TemporaryOptions = {}): Temporary {
  if (opts.sweep !== false) removeStaleTemporaries(target);
  const dir = mkdtempSync(join(dirname(resolve(target)), temporaryPrefix(target)));
  track(dir, () => unpark(dir, resolve(target)), opts.signals !== false);
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
