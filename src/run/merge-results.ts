import { NL } from '../records/char-codes.js';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { GameResultLine } from '../replay/result.js';

/** A structural `,"index":` cannot occur inside a JSON string (its quote would be escaped), and no finding has an index key. */
const INDEX_KEY = Buffer.from(',"index":');
/** Likewise `,"status":"`, which comes before the findings. */
const STATUS_KEY = Buffer.from(',"status":"');
const UNREADABLE = Buffer.from('unreadable"');

/** A results.ndjson that does not fit its shard.json (truncated, reordered, or from another shard). */
export class ResultsMismatch extends Error {}

/**
 * Reads one shard's results.ndjson line by line and copies runs of lines into the merged
 * file, rewriting each line's `index` from the shard's numbering to the run's by adding an
 * offset: the only byte that differs between a shard's line and the whole run's. Checks
 * as it goes that the lines are in order and inside the ranges shard.json promised, and at
 * the end that the count and the SHA-256 match.
 */
export class ShardResults {
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly hash = createHash('sha256');
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private ended = false;
  private lastIndex = -1;
  lines = 0;

  constructor(
    readonly path: string,
    private readonly expected: { lines: number; sha256: string },
    /** Told of every line read, as parsed JSON in the shard's numbering (to count it again). */
    private readonly onLine: ((line: GameResultLine) => void) | null = null,
  ) {
    this.chunks = createReadStream(path, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]();
  }

  /**
   * Copies every line whose index is below `end` (the shard's numbering) into `out`,
   * shifted by `delta`; each must be at least `start`. An unreadable line is offered to
   * `keep` first (with the run's index) and left out when it says no (folded). Returns
   * the lines read.
   */
  async copy(start: number, end: number, delta: number, out: Buffer[], keep?: (line: GameResultLine) => boolean): Promise<number> {
    let copied = 0;
    for (;;) {
      let nl = this.buf.indexOf(NL, this.pos);
      if (nl < 0) {
        if (!(await this.more())) {
          if (this.pos < this.buf.length) throw new ResultsMismatch(`${this.path}: the last line has no line break (truncated file)`);
          return copied;
        }
        continue;
      }
      const at = this.buf.indexOf(INDEX_KEY, this.pos);
      if (at < 0 || at > nl) throw new ResultsMismatch(`${this.path}:${this.lines + 1}: not a result line (no index)`);
      let p = at + INDEX_KEY.length;
      let index = 0;
      const digits = p;
      while (p < nl && this.buf[p] >= 0x30 && this.buf[p] <= 0x39) index = index * 10 + (this.buf[p++] - 0x30);
      if (p === digits) throw new ResultsMismatch(`${this.path}:${this.lines + 1}: not a result line (no index)`);
      if (index >= end) return copied;
      if (index < start || index < this.lastIndex) {
        throw new ResultsMismatch(`${this.path}:${this.lines + 1}: record ${index} is out of place (expected ${start} to ${end - 1}); the folder does not match its shard.json`);
      }
      this.lastIndex = index;
      if (this.onLine) {
        let parsed: GameResultLine;
        try {
          parsed = JSON.parse(this.buf.toString('utf8', this.pos, nl)) as GameResultLine;
        } catch {
          throw new ResultsMismatch(`${this.path}:${this.lines + 1}: not a result line (not JSON)`);
        }
        this.onLine(parsed);
      }
      if (keep && this.isUnreadable(nl) && !keep(this.parse(nl, index + delta))) {
        this.pos = nl + 1;
        this.lines++;
        copied++;
        continue;
      }
      if (delta === 0) out.push(this.buf.subarray(this.pos, nl + 1));
      else out.push(this.buf.subarray(this.pos, digits), Buffer.from(String(index + delta)), this.buf.subarray(p, nl + 1));
      this.pos = nl + 1;
      this.lines++;
      copied++;
    }
  }

  /** After the last range: nothing may be left, and the file must be the one shard.json describes. */
  async finish(): Promise<void> {
    const extra = await this.copy(0, Infinity, 0, []);
    if (extra > 0) throw new ResultsMismatch(`${this.path}: ${extra} result line(s) beyond the records shard.json lists`);
    if (this.lines !== this.expected.lines) throw new ResultsMismatch(`${this.path}: ${this.lines} lines, shard.json says ${this.expected.lines}`);
    const sha = this.hash.digest('hex');
    if (sha !== this.expected.sha256) throw new ResultsMismatch(`${this.path}: SHA-256 ${sha} differs from shard.json's ${this.expected.sha256} (changed or damaged)`);
  }

  private isUnreadable(nl: number): boolean {
    const at = this.buf.indexOf(STATUS_KEY, this.pos);
    return at >= 0 && at < nl && this.buf.compare(UNREADABLE, 0, UNREADABLE.length, at + STATUS_KEY.length, at + STATUS_KEY.length + UNREADABLE.length) === 0;
  }

  private parse(nl: number, index: number): GameResultLine {
    const parsed = GameResultLine.safeParse(JSON.parse(this.buf.toString('utf8', this.pos, nl)));
    if (!parsed.success) throw new ResultsMismatch(`${this.path}:${this.lines + 1}: not a result line`);
    return { ...parsed.data, index };
  }

  private async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.hash.update(next.value);
    // Keep the unfinished line; the earlier part of the buffer was copied out already (into `out`, by reference).
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), next.value]) : next.value;
    this.pos = 0;
    return true;
  }
}
