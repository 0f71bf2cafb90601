/**
 * A history failure the user can act on: one line, a machine-readable code. The command line
 * prints it and exits 2; the dashboard turns it into a page with an HTTP status.
 */
export type HistoryErrorCode =
  | 'history-not-a-run'
  | 'history-incomplete-run'
  | 'history-damaged-results'
  | 'history-counts-mismatch'
  | 'history-connect'
  | 'history-locked'
  | 'history-schema-newer'
  | 'history-schema-older'
  | 'history-not-a-database'
  | 'history-query-syntax'
  | 'history-unknown-run'
  | 'history-ambiguous-run'
  | 'history-unknown-game'
  | 'history-usage';

export class HistoryError extends Error {
  constructor(
    readonly code: HistoryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The HTTP status a history failure answers with in `serve`. */
export function httpStatusOf(code: HistoryErrorCode): number {
  if (code === 'history-unknown-run' || code === 'history-unknown-game') return 404;
  if (code === 'history-query-syntax' || code === 'history-usage' || code === 'history-ambiguous-run') return 400;
  return 503;
}
