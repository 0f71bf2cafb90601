/** Errors are values: a machine-readable code, a human sentence, and where it applies. */
export interface CoreError {
  code: string;
  message: string;
  /** The offending part of the input, e.g. the FEN field number or the move text. */
  field?: string;
}

export type Result<T, E = CoreError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = (code: string, message: string, field?: string): Result<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});
