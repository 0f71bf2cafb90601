/**
 * Keeps secrets (the login token) out of every message, file and log line: each
 * occurrence becomes `[redacted]`, and so does any user:password part of a URL.
 */
export class Redactor {
  private readonly secrets: string[];

  constructor(secrets: Array<string | null | undefined>) {
    // A token given as "Bearer xyz" is secret without its scheme too; longest first, so a secret containing another is replaced whole.
    const all = secrets.filter((s): s is string => typeof s === 'string' && s.trim() !== '').flatMap((s) => [s, s.replace(/^\s*\S+\s+/, '')]);
    this.secrets = [...new Set(all.filter((s) => s.trim() !== ''))].sort((a, b) => b.length - a.length);
  }

  text(s: string): string {
    let out = s.replace(/(\/\/)[^/@\s]+@/g, '$1[redacted]@');
    for (const secret of this.secrets) out = out.split(secret).join('[redacted]');
    return out;
  }

  /** Whether `s` holds a secret verbatim (bytes about to be written). */
  leaks(s: string | Buffer): boolean {
    // Short secrets would match ordinary text; they are still redacted from messages.
    return this.secrets.some((secret) => secret.length >= 8 && s.includes(secret));
  }
}
