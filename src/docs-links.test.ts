import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README and docs/ link into each other and into the tree, and code comments cite
// `docs/….md#anchor`: every such target must exist, so the documentation stays true as files move.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Markdown files of a folder, recursively. */
function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** Source files whose comments may cite docs (not node_modules, dist or run outputs). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(ts|cts|mjs|js|sh)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The text outside fenced code blocks and inline code (links there are examples, not links). */
const prose = (md: string): string => md.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and explicit ids. */
export function anchors(md: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = md.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1].replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  return out;
}

/** Relative link targets of a Markdown text: `[text](target)` outside code. */
export function links(md: string): string[] {
  return [...prose(md).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** Why a link from `file` to `target` does not resolve, or null when it does. */
export function brokenLink(file: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (!existsSync(to)) return `${relative(root, to)} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(to).isDirectory() || !to.endsWith('.md')) return `#${anchor}: ${relative(root, to)} is not a Markdown file`;
  return anchors(readFileSync(to, 'utf8')).has(decodeURIComponent(anchor)) ? null : `${relative(root, to)} has no anchor #${anchor}`;
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs')), ...['corpora', 'dialects', 'reports'].map((d) => join(root, d, 'README.md'))];

describe('the documentation', () => {
  it('finds links and anchors as GitHub renders them', () => {
    expect(slug('The sites\' APIs: `fetch`')).toBe('the-sites-apis-fetch');
    expect(slug('Run-to-run diffs: diff')).toBe('run-to-run-diffs-diff');
    expect([...anchors('# A\n## B c\n```\n# not a heading\n```\n## B c\n<a id="x"></a>\n')]).toEqual(['a', 'b-c', 'b-c-1', 'x']);
    expect(links('[a](docs/x.md#y) `[b](nope.md)` [c](https://example.org) [d](<e.md>)\n```\n[g](h.md)\n```\n')).toEqual(['docs/x.md#y', 'e.md']);
    expect(brokenLink(join(root, 'README.md'), 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(brokenLink(join(root, 'README.md'), '#no-such-section')).toMatch(/has no anchor/);
    expect(brokenLink(join(root, 'README.md'), '#library-api')).toBeNull();
  });

  it('has the docs pages the README promises', () => {
    expect(pages.length).toBeGreaterThan(8);
  });

  it.each(pages.map((p) => [relative(root, p), p]))('every relative link of %s resolves to a file and anchor', (_name, page) => {
    const md = readFileSync(page, 'utf8');
    const broken = links(md)
      .map((t) => [t, brokenLink(page, t)] as const)
      .filter(([, why]) => why !== null)
      .map(([t, why]) => `${t}: ${why}`);
    expect(broken).toEqual([]);
  });

  it('every docs/ page a source comment cites exists, with its anchor', () => {
    const broken: string[] = [];
    const self = fileURLToPath(import.meta.url);
    for (const file of [...sourceFiles(join(root, 'src')), ...sourceFiles(join(root, 'scripts'))].filter((f) => f !== self)) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bdocs\/[\w/.-]+\.md(?:#[\w-]+)?/g)) {
        const why = brokenLink(join(root, 'README.md'), m[0]);
        if (why !== null) broken.push(`${relative(root, file)}: ${m[0]}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README stays a front door: at most 300 lines, none over 200 characters', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
    expect(lines.length).toBeLessThanOrEqual(300);
    expect(lines.map((l, i) => [i + 1, l.length]).filter(([, n]) => n > 200)).toEqual([]);
  });

  it('no page reads as a work log: figures carry their command and date, not who measured them when', () => {
    const logged = pages.flatMap((p) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .map((l, i) => [`${relative(root, p)}:${i + 1}`, l] as const)
        .filter(([, l]) => /\b(this|that|the previous|the last) session\b|\bthe session (before|of)\b|\bsession's\b|\bwe (measured|ran)\b/i.test(l))
        .map(([at]) => at),
    );
    expect(logged).toEqual([]);
  });
});
