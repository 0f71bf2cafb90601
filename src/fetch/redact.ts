/**
 * Keeps secrets (the login token, the cookie) out of every message, file and log line:
 * each occurrence becomes `[redacted]`, in every form a server or a library may echo
 * it in: raw, JSON-escaped (`\/` and `\uXXXX` included), URL-encoded (either case of
 * hex, `+` for spaces) and base64 (standard and URL-safe, padded or not); and so does
 * any user:password part of a URL. A cookie's values are secrets one by one too.
 *
 * Bodies about to be written are refused when they hold a secret (leaks), but only for
 * secrets of MIN_BODY_SECRET characters or more: a shorter one would match ordinary
 * text of games (`e2e4`, ids) and refuse them for nothing. Such short secrets are still
 * redacted from every message, manifest entry and log line.
 */
export const MIN_BODY_SECRET = 8;

const jsonForms = (s: string): string[] => {
  const escaped = JSON.stringify(s).slice(1, -1);
  const slashes = escaped.replace(/\//g, '\\/');
  const unicode = [...s].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');
  return [escaped, slashes, unicode, unicode.toUpperCase().replace(/\\U/g, '\\u')];
};

const urlForms = (s: string): string[] => {
  const upper = encodeURIComponent(s);
  const lower = upper.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  const form = upper.replace(/%20/g, '+');
  const all = [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  return [upper, lower, form, all, all.toLowerCase()];
};

const base64Forms = (s: string): string[] => {
  const b64 = Buffer.from(s, 'utf8').toString('base64');
  const url = Buffer.from(s, 'utf8').toString('base64url');
  return [b64, b64.replace(/=+$/, ''), url];
};

/** Every form of one secret, longest first. */
export function secretForms(secret: string): string[] {
  return [...new Set([secret, ...jsonForms(secret), ...urlForms(secret), ...base64Forms(secret)])].sort((a, b) => b.length - a.length);
}

/**
 * The secrets a value stands for: itself, without an auth scheme ("Bearer xyz"), and
 * each pair and value of a cookie header (those of MIN_BODY_SECRET characters or more:
 * a value like `1` would redact every digit of every message).
 */
function partsOf(value: string): string[] {
  const out = [value, value.replace(/^\s*\S+\s+/, '')];
  if (value.includes('=')) {
    for (const pair of value.split(';')) out.push(...[pair.trim(), pair.slice(pair.indexOf('=') + 1).trim()].filter((p) => p.length >= MIN_BODY_SECRET));
  }
  return out.filter((s) => s.trim() !== '');
}

export class Redactor {
  /** [form, the secret it encodes], longest form first, so a secret containing another is replaced whole. */
  private readonly forms: Array<[form: string, secret: string]>;

  constructor(secrets: Array<string | null | undefined>) {
    const all = new Set(secrets.filter((s): s is string => typeof s === 'string' && s.trim() !== '').flatMap(partsOf));
    const forms = new Map<string, string>();
    for (const secret of all) for (const f of secretForms(secret)) if (!forms.has(f) || forms.get(f)!.length < secret.length) forms.set(f, secret);
    this.forms = [...forms].sort((a, b) => b[0].length - a[0].length);
  }

  text(s: string): string {
    let out = s.replace(/(\/\/)[^/@\s]+@/g, '$1[redacted]@');
    for (const [form] of this.forms) out = out.split(form).join('[redacted]');
    return out;
  }

  /** Whether `s` holds a secret of MIN_BODY_SECRET characters or more, in any form (bytes about to be written). */
  leaks(s: string | Buffer): boolean {
    return this.forms.some(([form, secret]) => secret.length >= MIN_BODY_SECRET && s.includes(form));
  }
}
