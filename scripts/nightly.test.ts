import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../src/test-support/temp-dir.js';

/**
 * scripts/nightly.sh run for real, again and again, on a small config of generated
 * corpora: the last good run survives any number of failing nights, a missing last-good
 * is an error, the corpus cache follows each entry's content, and gone games fail.
 */

const script = fileURLToPath(new URL('./nightly.sh', import.meta.url));

interface Night {
  code: number | null;
  out: string;
  err: string;
}

function setup() {
  const dir = tempDir('dice-nightly-');
  const state = join(dir, 'state');
  const corpora = join(dir, 'corpora');
  const config = join(dir, 'nightly.json');
  const night = (extra: string[] = []): Night => {
    const r = spawnSync('bash', [script, config, state, ...extra], { encoding: 'utf8', env: { ...process.env, NIGHTLY_CORPORA: corpora } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const write = (c: object): void => writeFileSync(config, JSON.stringify(c));
  const runs = (): string[] => readdirSync(join(state, 'runs')).filter((f) => !f.endsWith('.diff.md') && !f.endsWith('.scores.json')).sort();
  const lastGood = (): string => readlinkSync(join(state, 'last-good'));
  const sources = (run: string): string[] => JSON.parse(readFileSync(join(state, 'runs', run, 'summary.json'), 'utf8')).run_info.sources.map((s: { source: string }) => s.source);
  return { dir, state, corpora, night, write, runs, lastGood, sources };
}

const entry = (name: string, over: Record<string, unknown> = {}) => ({ name, generate: { dialect: 'reference', games: 4, seed: `s-${name}`, format: 'ndjson', ...over } });
const base = { dialects: ['reference'], jobs: 1, corpora: [entry('a'), entry('b', { format: 'csv' })] };

// A dozen whole nights (generate, replay and diff processes each) take minutes on a loaded shared machine.
const NIGHTS_TIMEOUT = 600_000;

describe('scripts/nightly.sh', { timeout: NIGHTS_TIMEOUT }, () => {
  it('keeps the last good run through 9 failing nights; a missing last-good is then an error', () => {
    const n = setup();
    n.write(base);
    const first = n.night();
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    const good = n.lastGood();
    expect(n.runs()).toHaveLength(1);
    // Planted divergences in the same games: every night from now on breaks.
    n.write({ ...base, corpora: [entry('a', { inject: ['maximum.fewer-dice:0.5'] }), base.corpora[1]] });
    for (let i = 0; i < 9; i++) {
      const r = n.night();
      expect(r.code, r.err).toBe(1);
      expect(r.out).toMatch(/record\(s\) broke/);
      expect(n.lastGood()).toBe(good);
      expect(existsSync(join(n.state, n.lastGood(), 'summary.json'))).toBe(true);
    }
    // Seven newest runs kept, and the last good one beside them.
    expect(n.runs()).toHaveLength(8);
    expect(n.runs()[0]).toBe(good.replace(/^runs\//, ''));
    // Dangling last-good after the first run: an error, not a fresh start.
    rmSync(join(n.state, good), { recursive: true });
    const dangling = n.night();
    expect(dangling.code).toBe(2);
    expect(dangling.err).toMatch(/last-good .*(missing|not a run)/);
    expect(lstatSync(join(n.state, 'last-good')).isSymbolicLink()).toBe(true);
    rmSync(join(n.state, 'last-good'));
    const missing = n.night();
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no last-good/);
  });

  it('keys the corpus cache by entry content, replays only the entries of the config, honours dialects, and fails on gone games unless allowed', () => {
    const n = setup();
    n.write({ ...base, dialects: ['reference', 'chess'] });
    expect(n.night().code).toBe(0);
    const run1 = n.runs()[0];
    expect(JSON.parse(readFileSync(join(n.state, 'runs', run1, 'summary.json'), 'utf8')).dialects).toEqual(['reference', 'chess']);
    const files1 = readdirSync(n.corpora).sort();
    // More games under the same name: a new corpus, not the cached one.
    n.write({ ...base, dialects: ['reference', 'chess'], corpora: [entry('a', { games: 6 }), base.corpora[1]] });
    const more = n.night();
    expect(more.code, more.err).toBe(0);
    const run2 = n.runs()[1];
    expect(readdirSync(n.corpora).length).toBe(files1.length + 1);
    const sum2 = JSON.parse(readFileSync(join(n.state, 'runs', run2, 'summary.json'), 'utf8'));
    expect(sum2.totals.lines).toBe(2 * (6 + 4));
    // A renamed entry: its old file is not replayed.
    n.write({ ...base, dialects: ['reference', 'chess'], corpora: [entry('a', { games: 6 }), { ...base.corpora[1], name: 'c' }] });
    expect(n.night().code).toBe(0);
    expect(n.sources(n.runs()[2]).map((s) => s.replace(/^.*\//, '').replace(/\..*$/, ''))).toEqual(['a', 'c']);
    // An entry removed: its games are gone, and that breaks.
    n.write({ ...base, dialects: ['reference', 'chess'], corpora: [entry('a', { games: 6 })] });
    const shrank = n.night();
    expect(shrank.code).toBe(1);
    expect(shrank.out).toMatch(/record\(s\) gone/);
    expect(n.sources(n.runs()[3])).toHaveLength(1);
    expect(n.lastGood()).toBe(`runs/${n.runs()[2]}`);
    // Told the corpus shrank on purpose (flag or config field): promoted.
    expect(n.night(['--allow-gone']).code).toBe(0);
    n.write({ ...base, dialects: ['reference', 'chess'], allowGone: true, corpora: [entry('a', { games: 6 })] });
    expect(n.night().code).toBe(0);
  });

  it('refuses a config with fields it does not know, before running anything', () => {
    const n = setup();
    n.write({ ...base, dialect: 'reference' });
    const r = n.night();
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown field "dialect"/);
    expect(existsSync(n.state)).toBe(false);
    n.write({ ...base, corpora: [entry('a', { gmes: 3 })] });
    expect(n.night().code).toBe(2);
  });
});
