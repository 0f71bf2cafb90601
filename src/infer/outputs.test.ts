import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/paths.js';
import { tempDir } from '../test-support/temp-dir.js';
import type { OptionDoc } from './document.js';
import { verdictPhrase } from './verdict-phrase.js';

/**
 * infer's --out and --write go through the shared output code: checked before a game
 * is judged, atomic, never replacing what the tool did not write, and streamed to a
 * pipe. Real CLI processes, as the user runs them.
 */
const root = packageRoot();
const bin = join(root, 'bin', 'dice-dialects.js');
const sample = join(root, 'corpora/samples/reference/games.ndjson.gz');

function sh(cwd: string, script: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
const infer = (args: string) => `"${process.execPath}" "${bin}" infer --dialect reference --option maximum --limit 30 --jobs 1 --quiet ${args}`;

describe('infer outputs', () => {
  it('--write /dev/stdout | cat streams the dialect file to the pipe and ends (exit 0)', async () => {
    const dir = tempDir('dd-infer-out-');
    const r = await sh(dir, `${infer(`"${sample}" --write /dev/stdout`)} | cat; exit $?`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out.slice(0, r.out.lastIndexOf('}') + 1))).toMatchObject({ extends: 'reference' });
  }, 120_000);

  it.each([['nowhere', '/dev/null/x.json'], ['through a file', 'file.txt/x.json']])('--write %s is one line and exit 2 before any game is judged', async (_, path) => {
    const dir = tempDir('dd-infer-out-');
    writeFileSync(join(dir, 'file.txt'), 'keep');
    const r = await sh(dir, `${infer(`"${sample}" --write ${path}`).replace('--quiet', '')}`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^dice-dialects: --write .*: cannot create it: .* is not a folder \(nothing was written\)\n$/);
    expect(r.err).not.toMatch(/inferred from|at .*\.js/);
    expect(readdirSync(dir)).toEqual(['file.txt']);
  }, 120_000);

  it('--write into a missing folder creates it, atomically', async () => {
    const dir = tempDir('dd-infer-out-');
    const r = await sh(dir, infer(`"${sample}" --write missing-dir/x.json`));
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'missing-dir/x.json'), 'utf8'))).toMatchObject({ extends: 'reference' });
    expect(readdirSync(join(dir, 'missing-dir'))).toEqual(['x.json']);
  }, 120_000);

  it('--write refuses a file infer did not write, and replaces one it did', async () => {
    const dir = tempDir('dd-infer-out-');
    writeFileSync(join(dir, 'mine.json'), '{"name":"mine"}\n');
    const refused = await sh(dir, infer(`"${sample}" --write mine.json`));
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--write mine\.json: exists and is not a dialect file written by infer/);
    expect(readFileSync(join(dir, 'mine.json'), 'utf8')).toBe('{"name":"mine"}\n');
    expect((await sh(dir, infer(`"${sample}" --write ours.json`))).code).toBe(0);
    expect((await sh(dir, infer(`"${sample}" --write ours.json`))).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['mine.json', 'ours.json']);
  }, 120_000);

  it('--out inside a source folder is refused, as replay refuses it; the folder replays as before', async () => {
    const dir = tempDir('dd-infer-out-');
    mkdirSync(join(dir, 'src'));
    copyFileSync(sample, join(dir, 'src', 'games.ndjson.gz'));
    const r = await sh(dir, infer('src --out src/infer'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--out src\/infer: is inside the source folder src/);
    expect(readdirSync(join(dir, 'src'))).toEqual(['games.ndjson.gz']);
  }, 120_000);

  it('--out replaces only an infer run folder: a foreign folder is refused, its files kept', async () => {
    const dir = tempDir('dd-infer-out-');
    const out = join(dir, 'out');
    expect((await sh(dir, infer(`"${sample}" --out out`))).code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.dice-dialects-run', 'infer.json', 'report.html', 'report.md']);
    expect((await sh(dir, infer(`"${sample}" --out out`))).code).toBe(0);
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'notes', 'infer.json'), '{}');
    writeFileSync(join(dir, 'notes', 'todo.txt'), 'keep');
    const r = await sh(dir, infer(`"${sample}" --out notes`));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--out notes: exists and is not an infer run folder/);
    expect(readdirSync(join(dir, 'notes')).sort()).toEqual(['infer.json', 'todo.txt']);
    expect(existsSync(join(dir, 'out.previous'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['notes', 'out']);
  }, 120_000);
});

describe('infer with no --option (22.10, 22.13)', () => {
  it.each(['chess', 'wikipedia-two-dice'])('%s: an option with one judgeable value is left out with a note; an option no game tells apart is "not judgeable", never "undecided (undecided)"', async (d) => {
    const dir = tempDir('dd-infer-out-');
    const r = await sh(dir, `"${process.execPath}" "${bin}" infer "${join(root, 'corpora/samples', d)}" --dialect ${d} --limit 30 --jobs 1 --quiet`);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^dice-dialects: note: option maximum: only none can be judged under .*: left out \(nothing to infer\)/m);
    expect(r.out).toMatch(/^enPassant\.window is not judgeable: no game reaches a turn where its values differ; /m);
    expect(r.out).not.toMatch(/undecided \(undecided\)/);
  }, 120_000);

  /** A line that says a verdict word twice ("undecided (undecided)", "x: undecided — x is undecided"). */
  const TWICE = /\b(undecided|judgeable|supported|contradict\w*)\b.*\b\1\b/;

  it('no output says a verdict twice: the command\'s lines, report.md and report.html rows, and the phrase the benchmark prints (scripts/bench-infer.mjs)', async () => {
    const dir = tempDir('dd-infer-out-');
    const args = `"${join(root, 'corpora/samples/dicechess-com')}" --dialect dicechess-com --limit 30 --jobs 1 --quiet`;
    const text = await sh(dir, `"${process.execPath}" "${bin}" infer ${args} --out run`);
    expect(text.code).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'run', 'infer.json'), 'utf8')) as { options: Array<OptionDoc> };
    const lines = text.out.split('\n');
    for (const o of doc.options) expect(lines, o.path).toContain(o.sentence.replace(/`/g, ''));
    // The reports' table rows and verdict sentences (the method's paragraph defines the words, so it may use them twice).
    const md = readFileSync(join(dir, 'run', 'report.md'), 'utf8').split('\n');
    const html = readFileSync(join(dir, 'run', 'report.html'), 'utf8').split(/<tr>|\n/).filter((row) => row.includes('</td>') || row.startsWith('<p class="verdict')).map((row) => row.replace(/<[^>]*>/g, ''));
    expect(html.length).toBeGreaterThan(doc.options.length);
    for (const line of [...lines, ...md.filter((l) => l.startsWith('|') || l.startsWith('`')), ...html]) expect(line).not.toMatch(TWICE);
    const phrases = Object.fromEntries(doc.options.map((o) => [o.path, verdictPhrase(o)]));
    for (const phrase of Object.values(phrases)) expect(phrase).not.toMatch(TWICE);
    // The sample holds undecided options and options it cannot judge (no history list, no clocks): each is said once, as such.
    expect(phrases.maximum).toBe('undecided');
    expect(phrases['draws.castlingCounts']).toBe('not judgeable: no game ends where its values differ (no history list or recorded end to judge)');
    expect(doc.options.find((o) => o.path === 'draws.castlingCounts')!.sentence).toMatch(/^`draws\.castlingCounts` is not judgeable: no game ends where/);
    expect(md).toContainEqual(expect.stringMatching(/^\| `draws\.castlingCounts` \| `1` \| — \(consistent: `1`, `2`\) \| not judgeable \|/));
    expect(md).toContainEqual(expect.stringMatching(/^\| `maximum` \| `path` \| — \(consistent: .*\) \| undecided \|/));
    // What the benchmark prints for an option is this phrase.
    expect(readFileSync(join(root, 'scripts/bench-infer.mjs'), 'utf8')).toMatch(/console\.log\(`  \$\{o\.path\}: \$\{verdictPhrase\(o\)\}; /);
  }, 120_000);
});
