/**
 * Escaping for every output format. Record text (ids, player names, messages, even
 * moves and DFENs of unreadable records) is untrusted: it goes through one of these
 * before it reaches HTML, XML, Markdown or a shell command line.
 */
import { escapeXml } from '../explore/page/escape-xml.js';

/** Longest value a rendered report shows whole: ids, sources, messages of any length stay readable; data files keep them whole. */
export const CLIP_CHARS = 500;

/** `text` cut to `max` characters with an ellipsis and the full length (for reports read by people, never for data files). */
export function clip(text: string, max = CLIP_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters in all; whole in summary.json and results.ndjson)`;
}

export { escapeXml };
export const escapeHtml = escapeXml;

/** Text inside a Markdown table cell or prose line: no HTML, no table breaks, no emphasis or links. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+!|~&]/g, (c) => `\\${c}`);
}

/** Inline code that survives any backticks in the text (a fence longer than the longest run inside). */
export function mdCode(text: string, inTable = false): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  // Inside a table a pipe still splits cells, even in code: escape it.
  return `${fence}${pad}${inTable ? flat.replace(/\|/g, '\\|') : flat}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run in the text. */
export function mdFence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** A shell word: kept bare or double-quoted when plainly safe, else single-quoted. */
export function shellQuote(text: string, preferDouble = false): string {
  if (text !== '' && /^[A-Za-z0-9_./,:=@+-]+$/.test(text) && !preferDouble) return text;
  if (/^[A-Za-z0-9_./,:=@+ -]*$/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
