/**
 * yargs drops a lone `-` from positional lists (and `replay -` read nothing), so main()
 * hands it to yargs under this name and restoreStdinArgs turns it back into `-` in every
 * parsed value before any command sees it.
 */
export const STDIN_ARG = '\u0000stdin';

export function restoreStdinArgs(argv: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(argv)) {
    if (value === STDIN_ARG) argv[key] = '-';
    else if (Array.isArray(value)) argv[key] = value.map((v) => (v === STDIN_ARG ? '-' : v));
  }
}
