import { clip, escapeHtml } from '../../report/escape.js';

/**
 * The dashboard's page shell, in the report's style (report.html's CSS and palette). Pages
 * carry no script and load nothing: the Content-Security-Policy forbids both.
 */
export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'";
/** The server's header adds what a <meta> policy cannot carry. */
export const CSP_HEADER = `${CSP}; frame-ancestors 'none'`;

const CSS = `
body{font-family:system-ui,"DejaVu Sans",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222;line-height:1.4}
h1{margin-bottom:4px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:32px}h3{margin-top:24px}
nav{display:flex;gap:18px;align-items:center;border-bottom:1px solid #ddd;padding-bottom:8px;margin-bottom:8px}
nav a{font-weight:600;text-decoration:none;color:#1f5fa0}nav form{margin-left:auto}
table{border-collapse:collapse;margin:10px 0;font-size:14px}
th,td{border:1px solid #ccc;padding:4px 10px;text-align:left;vertical-align:top}
th{background:#f3f3f3}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:"DejaVu Sans Mono",monospace;font-size:13px;background:#f5f5f5;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f5f5f5;padding:8px 12px;border-radius:4px;white-space:pre-wrap;word-break:break-all}
input[type=text]{font:inherit;padding:3px 6px;min-width:240px}form.filters{display:flex;flex-wrap:wrap;gap:10px;align-items:end}
form.filters label{display:flex;flex-direction:column;font-size:12px;color:#555}
.banner{padding:10px 14px;border-radius:6px;font-weight:600;margin:14px 0}
.bad{background:#fde2e1;border:1px solid #d62728}.good{background:#e3f5e1;border:1px solid #2ca02c}
.charts{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
.example{display:flex;flex-wrap:wrap;gap:20px;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
.example .facts{flex:1;min-width:320px}
.tag{display:inline-block;background:#eef;border:1px solid #99c;border-radius:3px;padding:0 5px;margin-right:4px;font-size:12px}
.muted{color:#666;font-size:13px}
.conforming{color:#2ca02c}.diverging{color:#d62728}.unreadable{color:#7f7f7f}
`;

/** Every record string shown goes through here: escaped, and cut when very long. */
export const h = (text: string | number | null | undefined): string => (text === null || text === undefined ? '—' : escapeHtml(clip(String(text))));
export const code = (text: string | null | undefined): string => (text === null || text === undefined ? '—' : `<code>${h(text)}</code>`);
/** An attribute value (a URL built by the dashboard from record strings, already percent-encoded). */
export const attr = (text: string): string => escapeHtml(text);
export const link = (href: string | null, inner: string): string => (href === null ? inner : `<a href="${attr(href)}">${inner}</a>`);

export function table(head: string[], rows: string[][], numeric: number[] = []): string {
  const th = head.map((x) => `<th>${x}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((c, i) => (numeric.includes(i) ? `<td class="num">${c}</td>` : `<td>${c}</td>`)).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${tr}\n</tbody>\n</table>`;
}

/** Where the pages link: the server's routes, or the static site's files (null: the site has no such page). */
export interface Links {
  runs(query?: Record<string, string>): string;
  trend(query?: Record<string, string>): string;
  run(run: number): string | null;
  game(id: string, dialect?: string): string | null;
  diff(a?: number, b?: number): string | null;
  search(q?: string): string | null;
  /** A file of the run's own folder (report.html, explorer.html), when the folder is still there. */
  runFile(run: number, file: string, folderThere: boolean): string | null;
}

export function query(path: string, q: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, v);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export const serverLinks: Links = {
  runs: (q) => query('/', q),
  trend: (q) => query('/trend', q),
  run: (run) => `/runs/${run}`,
  game: (id, dialect) => query('/game', { id, dialect }),
  diff: (a, b) => query('/diff', { a: a === undefined ? undefined : String(a), b: b === undefined ? undefined : String(b) }),
  search: (q) => query('/search', { q }),
  runFile: (run, file, there) => (there ? `/runs/${run}/${file}` : null),
};

export function page(links: Links, title: string, body: string, opts: { searchQuery?: string } = {}): string {
  const search = links.search();
  const box =
    search === null
      ? ''
      : `<form method="get" action="${attr(search)}" role="search"><input type="text" name="q" value="${attr(opts.searchQuery ?? '')}" placeholder="dialect:NAME status:diverging changed" aria-label="search"> <button type="submit">Search</button></form>`;
  const diff = links.diff();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${h(title)} · dice-dialects history</title>
<style>${CSS}</style>
</head>
<body>
<nav><a href="${attr(links.runs())}">Runs</a><a href="${attr(links.trend())}">Trend</a>${diff === null ? '' : `<a href="${attr(diff)}">Diff</a>`}${box}</nav>
<h1>${h(title)}</h1>
${body}
</body>
</html>
`;
}
