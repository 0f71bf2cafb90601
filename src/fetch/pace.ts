import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Politeness shared by every request of a run: at most `rate` request starts per
 * second (0 = no limit), and a pause for everyone when the server asks for one
 * (429 / 503 with Retry-After), since a busy server is busy for every request.
 */
export class Pace {
  private next = 0;
  private pausedUntil = 0;

  constructor(private readonly rate: number) {}

  /** Waits for this request's turn. */
  async turn(signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const gap = this.rate > 0 ? 1000 / this.rate : 0;
    const at = Math.max(now, this.next, this.pausedUntil);
    this.next = at + gap;
    if (at > now) await sleep(at - now, undefined, { signal });
  }

  /** Every request waits until `ms` from now (a server's Retry-After). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }
}

/** Retry-After as milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - now) : null;
}

/** Exponential backoff with jitter: base·2^attempt scaled by a random factor in [0.5, 1), capped. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  return Math.min(capMs, baseMs * 2 ** attempt) * (0.5 + random() / 2);
}
