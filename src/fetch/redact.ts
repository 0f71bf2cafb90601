/**
 * Keeps secrets (the login token) out of every message, file and log line: each
 * occurrence becomes `[redacted]`, and so does any user:password part of a URL.
 */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Array<string | null | undefined>) {
    // Longest first, so a secret containing another is replaced whole.
    this.secrets = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s !== ''))].sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s.replace(/(\/\/)[^/@\s]+@/g, '$1[redacted]@');
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }

  /** Whether `s` holds a secret verbatim (bytes about to be written). */
  leaks(s: string | Buffer): boolean {
    return this.secrets.some((secret) => s.includes(secret));
  }
}
