import type { TextSource } from './text-source.js';

export interface Line {
  text: string;
  /** 1-based line number in the source. */
  line: number;
}

/**
 * Splits a text source into lines (\n or \r\n). When the source broke off, the
 * unfinished last line is dropped: it belongs to the lost rest, reported once.
 */
export async function* lines(src: TextSource): AsyncGenerator<Line> {
  let pending = '';
  let line = 0;
  for await (const chunk of src.chunks()) {
    let start = 0;
    let text = pending + chunk;
    pending = '';
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield { text: text.slice(start, end), line: ++line };
      start = nl + 1;
    }
    pending = text.slice(start);
    text = '';
  }
  if (pending !== '' && src.failure === null) yield { text: pending.endsWith('\r') ? pending.slice(0, -1) : pending, line: ++line };
}
