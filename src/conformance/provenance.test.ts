import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every conformance case says where its expectation comes from, checkably from a clone: a
 * section of docs/rules.md that exists, or a public URL. The peer vectors name their engine.
 */
const root = new URL('../../', import.meta.url);
const rules = readFileSync(new URL('docs/rules.md', root), 'utf8');
const sections = new Set([...rules.matchAll(/^#{2,3} (§\d+(?:\.\d+)*)/gm)].map((m) => m[1]));
const caseFiles = readdirSync(new URL('dialects/cases/', root)).filter((f) => f.endsWith('.json'));
const cases = caseFiles.flatMap((f) => (JSON.parse(readFileSync(new URL(`dialects/cases/${f}`, root), 'utf8')) as { cases: Array<{ id: string; source: string }> }).cases.map((c) => ({ file: f, ...c })));

describe('conformance case provenance', () => {
  it('every source names a section of docs/rules.md that exists, or a public URL, and nothing else', () => {
    expect(sections.size).toBeGreaterThan(20);
    expect(cases.length).toBeGreaterThan(80);
    const bad: string[] = [];
    for (const c of cases) {
      const cited = [...c.source.matchAll(/§\d+(?:\.\d+)*/g)].map((m) => m[0]);
      const urls = [...c.source.matchAll(/https:\/\/\S+/g)];
      const inRepo = c.source.startsWith('docs/rules.md §') && cited.every((s) => sections.has(s));
      if (!inRepo && urls.length === 0) bad.push(`${c.file} ${c.id}: "${c.source}"`);
      if (cited.some((s) => !sections.has(s))) bad.push(`${c.file} ${c.id}: cites ${cited.filter((s) => !sections.has(s)).join(', ')}, not a section of docs/rules.md`);
    }
    expect(bad).toEqual([]);
  });

  it('the peer vectors name their engine and its licence', () => {
    const peer = JSON.parse(readFileSync(new URL('dialects/cases/peer-vectors.json', root), 'utf8')) as { about: string; cases: Array<{ source: string }> };
    expect(peer.about).toMatch(/@fortemate\/dicechess-engine/);
    expect(peer.about).toMatch(/licence AGPL-3\.0/);
    for (const c of peer.cases) expect(c.source).toMatch(/@fortemate\/dicechess-engine/);
    expect(rules).toMatch(/§10\.7 Peer engine vectors[\s\S]*licence is AGPL-3\.0/);
  });
});
