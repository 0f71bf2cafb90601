/**
 * A reader that closed its pipe (`… | head`) wants no more output. The command stops
 * at once and quietly, with the exit code it had so far (0 unless something already
 * failed), as `head` users expect: not an error, and no stack trace. Temporaries are
 * removed by their exit handler (src/output/temporary.ts).
 */
export const isClosedPipe = (e: unknown): boolean => (e as NodeJS.ErrnoException | null)?.code === 'EPIPE';

export function stopForClosedPipe(): never {
  process.exit(Number(process.exitCode ?? 0));
}
