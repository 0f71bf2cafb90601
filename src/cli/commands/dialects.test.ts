import { readdirSync, writeFileSync } from 'node:fs';
import { runCli } from '../test-support/run-cli.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-dir.js';

const run = runCli;

afterEach(() => {
  process.exitCode = 0;
});

// One per dialect file the project ships.
const DIALECT_FILES = readdirSync(new URL('../../../dialects/', import.meta.url)).filter((f) => f.endsWith('.json')).length;

describe('dice-dialects dialects', () => {
  it('lists one line per dialect with aliases and parent', async () => {
    const r = await run('dialects');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(DIALECT_FILES);
    expect(lines.find((l) => l.startsWith('dicechess-com'))).toMatch(/dicechess\.com.*extends reference/);
  });

  it('--compare prints every axis of every dialect (md and json)', async () => {
    const md = await run('dialects', '--compare', '--format', 'md');
    expect(md.code).toBe(0);
    expect(md.out).toContain('| enPassant.window |');
    const json = await run('dialects', '--compare', '--format', 'json');
    const parsed = JSON.parse(json.out) as { dialects: unknown[]; rows: Array<{ path: string; cells: Record<string, { source: string }> }> };
    expect(parsed.dialects).toHaveLength(DIALECT_FILES);
    expect(parsed.rows.find((r) => r.path === 'castling.dice')?.cells.reference.source).toBe('docs/rules.md §2.2');
  });

  it('--check FILE prints every problem with its path and exits 1', async () => {
    const dir = tempDir('dialects-cli-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'bad', extends: 'reference', castling: { dice: { value: 'queen', source: 'assumed' } }, extra: 1 }));
    const r = await run('dialects', '--check', bad);
    expect(r.code).toBe(1);
    expect(r.out).toContain('castling.dice.value:');
    expect(r.out).toContain('extra: unknown key');
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ name: 'good', extends: 'dicechess.com' }));
    const ok = await run('dialects', '--check', good);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('ok');
  });

  it('--show resolves --set', async () => {
    const r = await run('dialects', '--show', 'wikipedia', '--set', 'dice.count=3');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).rules.dice.count).toBe(3);
  });
});

describe('dice-dialects perft', () => {
  it('counts and divides, standard and Chess960 (king-takes-rook)', async () => {
    const r = await run('perft', '--depth', '3');
    expect(r.out.trim()).toBe('total: 8902');
    const d = await run('perft', '--fen', 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', '--depth', '2', '--divide');
    expect(d.out).toContain('total: 528');
    const c = await run('perft', '--fen', '1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1', '--depth', '1', '--divide');
    expect(c.out).toContain('g1h1: 1');
    expect(c.out).toContain('g1b1: 1');
  });

  it('usage errors are one line, exit 2', async () => {
    expect((await run('perft', '--depth', '2', '--dialect', 'reference')).code).toBe(2);
    const bad = await run('perft', '--depth', '2', '--set', 'enPassant.windw=x');
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toContain('enPassant.window');
    expect((await run('perft', '--depth', '2', '--fen', 'nonsense')).code).toBe(2);
    const kingless = await run('perft', '--depth', '2', '--fen', 'k7/8/8/8/8/8/8/8 w - - 0 1');
    expect([kingless.code, kingless.out, kingless.err.trim()]).toEqual([2, '', 'dice-dialects: bad FEN (perft.no-king): orthodox chess needs a king of each side; no white king on the board']);
    expect((await run('perft', '--depth', '1', '--fen', '1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1', '--set', 'castling.chess960=false')).code).toBe(2);
  });
});
