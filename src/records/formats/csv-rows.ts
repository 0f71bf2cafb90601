import { createRequire } from 'node:module';

type Papa = typeof import('papaparse');
let papa: Papa | null = null;

/**
 * Characters that make Papa Parse do more than split at "\n" and ",": a quote, another line
 * break ("\r" changes its line-ending guess), and the other delimiters it guesses between
 * (tab, "|", ";", the ASCII record and unit separators).
 */
const NOT_PLAIN = /["\r\t|;\x1e\x1f]/;

/**
 * The cells of each row of a CSV text, exactly as `Papa.parse(text, { header: false,
 * skipEmptyLines: false }).data` gives them. Text with none of the characters above (and no
 * leading BOM) is what Papa itself splits at "\n" and "," once it has guessed ","; that is
 * done here without its guessing (which parses the text once per candidate delimiter), and
 * Papa Parse (CommonJS, loaded on first need) reads anything else.
 */
export function parseRows(text: string): string[][] {
  if (text === '') return [];
  if (text.charCodeAt(0) !== 0xfeff && !NOT_PLAIN.test(text)) {
    const lines = text.split('\n');
    const rows = new Array<string[]>(lines.length);
    for (let i = 0; i < lines.length; i++) rows[i] = lines[i].split(',');
    return rows;
  }
  return papaParse(text);
}

/** Papa Parse's own reading of a text (tests compare `parseRows` with it). */
export function papaParse(text: string): string[][] {
  papa ??= createRequire(import.meta.url)('papaparse') as Papa;
  return papa.parse<string[]>(text, { header: false, skipEmptyLines: false }).data;
}
