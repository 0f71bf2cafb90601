/**
 * Files that are plainly not records, told by their first characters (the name only
 * backs up what the content already suggests): documentation, web pages, answer keys
 * of `generate`, binary data. A folder of corpora usually holds a README or keys; they
 * are passed over with a note instead of one unreadable entry each.
 */
export function notRecordsReason(head: string, name: string, strongSignsOnly: boolean): string | null {
  const text = head.replace(/^\uFEFF/, '');
  if (text.includes('\u0000')) return 'binary data (NUL bytes), not text';
  const start = text.trimStart();
  if (/^\{\s*"kind"\s*:\s*"dice-dialects\/answer-key"/.test(start)) return 'an answer key of `generate` ("kind": "dice-dialects/answer-key")';
  if (/^<(!doctype\s+html|html[\s>])/i.test(start)) return 'an HTML page';
  // Under a named --format, prose-like first lines may be real data (a CSV header with spaces): only the signs above count.
  if (strongSignsOnly) return null;
  const first = start.split('\n', 1)[0].trim();
  if (/^#{1,6}\s+\S/.test(first) || /^\S.*\n(={3,}|-{3,})\s*(\n|$)/.test(start)) return 'documentation (Markdown: it starts with a heading)';
  // Prose: words and spaces ending a sentence, no tabs or comma-separated columns, nothing JSON-like.
  const prose = /^[\p{L}\p{N}"'‘“(][^\t{}[\]]*$/u.test(first) && first.split(/\s+/).length >= 4 && !/,\S/.test(first);
  if (prose || (/\.(md|markdown|rst|txt|text|adoc|html?)$/i.test(name) && !/^[{[]/.test(start))) return 'documentation (text, not in any record format)';
  return null;
}
