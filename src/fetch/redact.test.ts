import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from './pace.js';
import { Redactor } from './redact.js';

describe('redaction and waits', () => {
  it('redacts the token, its part after the scheme, and URL credentials', () => {
    const r = new Redactor(['Bearer abcdefgh12345678']);
    expect(r.text('sent Bearer abcdefgh12345678 and abcdefgh12345678 to https://u:p@host/x')).toBe('sent [redacted] and [redacted] to https://[redacted]@host/x');
    expect(r.leaks(Buffer.from('{"t":"abcdefgh12345678"}'))).toBe(true);
    expect(new Redactor(['abc']).leaks('abcdef')).toBe(false);
    expect(new Redactor([null, '']).text('x')).toBe('x');
  });

  it('reads Retry-After as seconds or an HTTP date, and backs off exponentially with jitter under a cap', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    expect(backoffMs(0, 100, 1000, () => 0)).toBe(50);
    expect(backoffMs(3, 100, 1000, () => 0.999)).toBeLessThan(800);
    expect(backoffMs(3, 100, 1000, () => 0.999)).toBeGreaterThanOrEqual(799);
    expect(backoffMs(10, 100, 1000, () => 0)).toBe(500);
  });
});
