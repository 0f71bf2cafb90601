/** A usage problem (bad option, unknown dialect, bad DFEN): one clear line, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly code = 'usage',
  ) {
    super(message);
  }
}
