import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { GameResultLine } from '../replay/result.js';

/** A results.ndjson that cannot be read: missing, or a line that is not a GameResultLine. */
export class ResultsFileError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export function parseLine(text: string, path: string, lineNo: number): GameResultLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResultsFileError(`${path}:${lineNo}: not JSON`, path);
  }
  const parsed = GameResultLine.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResultsFileError(`${path}:${lineNo}: not a result line (${issue.path.join('.') || 'line'}: ${issue.message})`, path);
  }
  return parsed.data;
}

/**
 * Streams the lines of a results.ndjson (blank lines skipped); memory stays flat. `quick`,
 * where given, checks a parsed line by hand first (the history's bulk read); a line it
 * refuses gets the schema's full check and its error. The lines of `readResultBatches`, one by one.
 */
export async function* readResults(path: string, quick?: (json: unknown) => GameResultLine | null): AsyncGenerator<GameResultLine> {
  for await (const batch of readResultBatches(path, quick)) yield* batch;
}

/**
 * The lines of a results.ndjson in batches (about a megabyte of the file each), for bulk readers: one await
 * a batch instead of one a line, which at millions of lines costs more than the parsing.
 */
export async function* readResultBatches(path: string, quick?: (json: unknown) => GameResultLine | null): AsyncGenerator<GameResultLine[]> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let lineNo = 0;
  let rest = '';
  const parse = (text: string): GameResultLine | null => {
    lineNo++;
    if (text.trim() === '') return null;
    return (quick && quickLine(text, quick)) || parseLine(text, path, lineNo);
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      const out: GameResultLine[] = [];
      let from = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
        const line = parse(text.slice(from, nl));
        if (line) out.push(line);
        from = nl + 1;
      }
      rest = text.slice(from);
      if (out.length) yield out;
    }
  } catch (e) {
    if (e instanceof ResultsFileError) throw e;
    throw new ResultsFileError(`${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, path);
  } finally {
    stream.destroy();
  }
  const last = rest === '' ? null : parse(rest);
  if (last) yield [last];
}

function quickLine(text: string, quick: (json: unknown) => GameResultLine | null): GameResultLine | null {
  try {
    return quick(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * The same, synchronously, for callers that want a plain Iterable (renderJunit's
 * per-game cases). Reads in 64 KiB chunks so the file is never held whole.
 */
export function* readResultsSync(path: string): Generator<GameResultLine> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new ResultsFileError(`${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, path);
  }
  const buf = Buffer.alloc(64 * 1024);
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  let lineNo = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      rest += n > 0 ? decoder.decode(buf.subarray(0, n), { stream: true }) : decoder.decode();
      const parts = rest.split('\n');
      rest = n > 0 ? parts.pop()! : '';
      for (const text of parts) {
        lineNo++;
        if (text.trim() !== '') yield parseLine(text, path, lineNo);
      }
      if (n === 0) break;
    }
  } finally {
    closeSync(fd);
  }
}
