import type { Argv } from 'yargs';
import { UsageError } from './usage-error.js';

/**
 * Arguments yargs mishandles, put right before any command sees them. A lone `-`
 * (stdin) is dropped from positional lists (`replay -` read nothing), so main() hands
 * it to yargs under STDIN_ARG and this turns it back into `-` in every parsed value. An
 * option that takes one value but is given twice would arrive as a list and crash the
 * command; it is a usage error.
 */
export const STDIN_ARG = '\u0000stdin';

export function restoreArgs(argv: Record<string, unknown>, y: Argv): void {
  const lists = new Set<string>(((y as unknown as { getOptions(): { array: string[] } }).getOptions().array ?? []).flatMap((k) => [k, k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())]));
  for (const [key, value] of Object.entries(argv)) {
    if (value === STDIN_ARG) argv[key] = '-';
    else if (Array.isArray(value)) {
      if (!lists.has(key) && key !== '_' && key.length > 1) throw new UsageError(`--${key} is given ${value.length} times; give it once`);
      argv[key] = value.map((v) => (v === STDIN_ARG ? '-' : v));
    }
  }
}
