import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../records/test-support/collect.js';
import { randomGame } from '../records/test-support/random-game.js';
import { makeRecordText } from '../records/write.js';
import { runCli } from './test-support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'source-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let runs = 0;
const outDir = (): string => join(dir, `run-${++runs}`);
const games = (from: number, n: number): string => Array.from({ length: n }, (_, i) => makeRecordText('ndjson', randomGame(from + i, { turns: 3 }))).join('');
const summaryOf = (out: string) => JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));

const tree = join(dir, 'tree');
mkdirSync(join(tree, 'sub'), { recursive: true });
writeFileSync(join(tree, 'a.ndjson'), games(0, 3));
writeFileSync(join(tree, 'sub', 'b.ndjson'), games(10, 2));
writeFileSync(join(tree, 'sub', 'c.jsonl'), games(20, 4));

describe('the source options every reading command takes', () => {
  it('replay takes sources after --dialect (and anywhere else), as convert does', async () => {
    const out = outDir();
    const r = await runCli('replay', '--dialect', 'reference', join(tree, 'a.ndjson'), '--out', out, '--jobs', '1', '--quiet', join(tree, 'sub', 'b.ndjson'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(summaryOf(out).totals.lines).toBe(5);
  });

  it('a dangling link in a folder is one unreadable entry and does not fail the run (exit 0)', async () => {
    const folder = join(dir, 'with-link');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.ndjson'), games(30, 2));
    symlinkSync(join(dir, 'nowhere.ndjson'), join(folder, 'b.ndjson'));
    const out = outDir();
    const r = await runCli('replay', folder, '--dialect', 'reference', '--out', out, '--jobs', '1', '--quiet');
    expect(r.code).toBe(0);
    expect(summaryOf(out).totals).toMatchObject({ lines: 3, unreadable: 1 });
    expect(summaryOf(out).byRule['record.broken-link'].games).toBe(1);
  });

  it('a source that cannot be read at all is one error line naming it and why, even with --quiet; the rest is judged and the run exits 2 (replay and infer)', async () => {
    const missing = join(dir, 'no-such.ndjson');
    const binary = join(dir, 'noise.dat');
    writeFileSync(binary, Buffer.from([0, 1, 2, 3, 0, 255]));
    const out = outDir();
    const r = await runCli('replay', missing, join(tree, 'a.ndjson'), binary, '--dialect', 'reference', '--jobs', '1', '--quiet', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `dice-dialects: error: ${missing}: record.io: ${missing} does not exist\n` +
        `dice-dialects: error: ${binary}: record.unknown-format: cannot tell the format of ${binary} from its first bytes (it looks like binary data (NUL bytes), not text); name it with --format\n`,
    );
    expect(summaryOf(out).totals.lines).toBe(5);
    const inferred = await runCli('infer', join(tree, 'a.ndjson'), missing, '--dialect', 'reference', '--jobs', '2', '--quiet');
    expect(inferred.code).toBe(2);
    // Told once, though infer reads its sources twice (the confirmation pass).
    expect(inferred.err).toBe(`dice-dialects: error: ${missing}: record.io: ${missing} does not exist\n`);
  });

  it('--jobs above the cores runs, with one warning that it costs memory and no speed', async () => {
    const cores = availableParallelism();
    const out = outDir();
    const r = await runCli('replay', join(tree, 'a.ndjson'), '--dialect', 'reference', '--jobs', String(cores + 1), '--quiet', '--out', out);
    expect(r.code).toBe(0);
    expect(r.err).toBe(`dice-dialects: warning: --jobs ${cores + 1} is more than the ${cores} core${cores === 1 ? '' : 's'} here: each thread above them costs memory and no speed\n`);
    expect(summaryOf(out).totals.lines).toBe(3);
  });

  it('replay takes --glob, and so does infer', async () => {
    const out = outDir();
    const r = await runCli('replay', tree, '--glob', '**/*.ndjson', '--dialect', 'reference', '--out', out, '--jobs', '1', '--quiet');
    expect(r.code).toBe(0);
    expect(summaryOf(out).totals.lines).toBe(5);
    const i = await runCli('infer', tree, '--glob', '**/*.ndjson', '--dialect', 'reference', '--option', 'maximum', '--json', '--jobs', '1', '--quiet');
    expect(i.code, i.err).toBe(0);
    const doc = JSON.parse(i.out);
    expect(doc.games).toBe(5);
    expect(doc.corpus.sources.map((s: { source: string }) => s.source).sort()).toEqual([join(tree, 'a.ndjson'), join(tree, 'sub', 'b.ndjson')]);
  });

  it.each(['-1', 'abc', '1.5', '0'])('replay, convert and infer refuse --limit %s with one line and exit 2', async (limit) => {
    for (const command of [['replay', '--dialect', 'reference', '--out', outDir()], ['convert'], ['infer', '--dialect', 'reference', '--json']]) {
      const r = await runCli(...command, join(tree, 'a.ndjson'), `--limit=${limit}`);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^dice-dialects: --limit must be a whole number from 1\n$/);
    }
  });

  it.each([
    ['--timeout-ms', '0'],
    ['--retries', '-2'],
    ['--max-bytes', 'lots'],
    ['--deadline-ms', '1.5'],
  ])('replay, convert and infer take the HTTP options and refuse %s %s', async (option, value) => {
    for (const command of [['replay', '--dialect', 'reference', '--out', outDir()], ['convert'], ['infer', '--dialect', 'reference', '--json']]) {
      const r = await runCli(...command, join(tree, 'a.ndjson'), `${option}=${value}`);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^dice-dialects: ${option} must be a whole number`));
    }
    const ok = await runCli('replay', join(tree, 'a.ndjson'), option, '5', '--dialect', 'reference', '--out', outDir(), '--jobs', '1', '--quiet');
    expect(ok.code).toBe(0);
  });

  it('replay takes --history-list: a history list that cannot be read is a usage error (exit 2), as in convert', async () => {
    for (const command of [['replay', '--dialect', 'dicechess-com', '--out', outDir(), '--jobs', '1'], ['convert']]) {
      const r = await runCli(...command, fixture('dicechess-com'), '--history-list', join(dir, 'no-such-list.json'));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^dice-dialects: history list .*no-such-list\.json: .*does not exist\n$/);
    }
    const emptyList = join(dir, 'empty-list.json');
    writeFileSync(emptyList, '[]');
    const c = await runCli('convert', fixture('dicechess-com'), '--history-list', emptyList, '--out', join(dir, 'with-empty-list.ndjson'));
    expect(c.err).toMatch(/^dice-dialects: note: the history list .*empty-list\.json holds no game rows/m);
    const out = outDir();
    const r = await runCli('replay', fixture('dicechess-com'), '--history-list', fixture('dicechess-com-history-list.json'), '--dialect', 'dicechess-com', '--out', out, '--jobs', '1', '--quiet');
    expect(r.code).toBe(0);
    expect(summaryOf(out).totals.lines).toBeGreaterThan(0);
  });

  it('an unknown option among the sources is still a usage error', async () => {
    const r = await runCli('replay', join(tree, 'a.ndjson'), '--dialect', 'reference', '--out', outDir(), '--glbo', 'x');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dice-dialects: Unknown argument: glbo\n$/);
  });

  it('replay corpora passes over the README and the answer keys with one note each, on stderr and in the summary', async () => {
    // The committed corpora folder as a fresh clone has it (a user's benchmarks add corpora/generated/, read first).
    const committed = fileURLToPath(new URL('../../corpora', import.meta.url));
    const corpora = join(dir, 'corpora');
    for (const part of ['README.md', 'keys', 'samples']) cpSync(join(committed, part), join(corpora, part), { recursive: true });
    const out = outDir();
    const r = await runCli('replay', corpora, '--dialect', 'reference', '--out', out, '--jobs', '1', '--limit', '5', '--quiet');
    expect(r.code).toBe(0);
    const summary = summaryOf(out);
    expect(summary.totals.unreadable).toBe(0);
    expect(summary.totals.lines).toBe(5);
    expect(summary.notes.map((n: { source: string; code: string }) => [relative(corpora, n.source), n.code])).toEqual([
      ['README.md', 'source.skipped'],
      ['keys/dicechess-com.state-maps.key.json', 'source.skipped'],
      ['keys/reference.history.key.json', 'source.skipped'],
    ]);
    expect(r.err.match(/^dice-dialects: note: .*passed over$/gm)).toHaveLength(3);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## Notes on the sources[\s\S]*README\.md/);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<h2>Notes on the sources<\/h2>[\s\S]*README\.md/);
    const c = await runCli('convert', join(corpora, 'keys'), join(tree, 'a.ndjson'));
    expect(c.code).toBe(0);
    expect(c.err.trim().split('\n').at(-1)).toBe('read 3, unreadable 0, 2 source notes');
  });

  it.each([
    ['turns', '--dfen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB', '--limit', 'abc'],
    ['turns', '--dfen', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB', '--limit', '1.5'],
    ['generate', '--games', '1', '--out', join(dir, 'never-written.ndjson'), '--draw-offer-rate', 'abc'],
  ])('other hand-checked numbers: %s … %s %s', async (...argv) => {
    const r = await runCli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dice-dialects: --(limit|draw-offer-rate) must be a (whole )?number from \d\n$/);
  });

  it('a whole replay process ends a trickling HTTP source at --deadline-ms with the documented error (exit 2), loopback server', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/games.ndjson`;
    try {
      const out = outDir();
      const bin = fileURLToPath(new URL('../../bin/dice-dialects.js', import.meta.url));
      const child = spawn(process.execPath, [bin, 'replay', url, '--dialect', 'reference', '--deadline-ms', '800', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(code).toBe(2);
      const results = readFileSync(join(out, 'results.ndjson'), 'utf8');
      expect(results).toMatch(/record\.http.*did not finish within the deadline of 0\.8 s/);
      expect(err).toMatch(/1 unreadable/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
