import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';
import { tempDir } from '../test-support/temp-dir.js';

/**
 * Output paths as a user hits them, through the real command line in child processes:
 * nothing the tool did not make is ever replaced, a bad path is one line and exit 2,
 * and an interrupted run leaves no temporary behind.
 */

const root = packageRoot();
const bin = join(root, 'bin/dice-dialects.js');
const sample = join(root, 'corpora/samples/reference/games.ndjson.gz');
const records = (n: number): string => gunzipSync(readFileSync(sample)).toString('utf8').split('\n').slice(0, n).join('\n') + '\n';

function cli(cwd: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input: input ?? '', encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Every path below `dir` with its bytes: what "nothing touched" is checked against. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out[`${r}/`] = '';
        visit(join(d, e.name), r);
      } else out[r] = readFileSync(join(d, e.name), 'latin1');
    }
  };
  visit(dir, '');
  return out;
}

function expectUsageLine(r: { code: number | null; err: string }, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.err).toMatch(/^dice-dialects: [^\n]+\n$/);
  expect(r.err).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at |internal error|Unhandled|node:events/);
}

describe('replay --out replaces only a previous run folder', () => {
  const setup = () => {
    const dir = tempDir('dice-out-');
    mkdirSync(join(dir, 'reports/example'), { recursive: true });
    writeFileSync(join(dir, 'README.md'), 'keep me\n');
    writeFileSync(join(dir, 'reports/dialect-matrix.md'), 'matrix\n');
    mkdirSync(join(dir, 'corpus'));
    writeFileSync(join(dir, 'corpus/games.ndjson'), records(3));
    writeFileSync(join(dir, 'plain.txt'), 'a plain file\n');
    mkdirSync(join(dir, 'empty'));
    return dir;
  };

  for (const out of ['.', 'reports', 'corpus', 'plain.txt', 'empty', 'README.md']) {
    it(`--out ${out}: usage error, exit 2, nothing touched`, () => {
      const dir = setup();
      const before = tree(dir);
      const r = cli(dir, ['replay', 'corpus', '--dialect', 'reference', '--jobs', '1', '--out', out]);
      expectUsageLine(r, /not a run folder|is a file|inside the source folder|is also an input/);
      expect(tree(dir)).toEqual(before);
    });
  }

  it('a run folder inside a source folder is refused (the next run would read it as records)', () => {
    const dir = setup();
    const before = tree(dir);
    expectUsageLine(cli(dir, ['replay', 'corpus', '--dialect', 'reference', '--out', 'corpus/run']), /inside the source folder corpus/);
    expect(tree(dir)).toEqual(before);
  });

  it('a previous run folder is replaced, and so is one written before the marker existed', () => {
    const dir = setup();
    const first = cli(dir, ['replay', 'corpus', '--dialect', 'reference', '--jobs', '1', '--out', 'runs/a', '--quiet']);
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, 'runs/a/.dice-dialects-run'))).toBe(true);
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual(['a']);
    const again = cli(dir, ['replay', 'corpus', '--dialect', 'chess', '--jobs', '1', '--out', 'runs/a', '--quiet']);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'runs/a/summary.json'), 'utf8')).dialects).toEqual(['chess']);
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual(['a']);
    // A run folder from before the marker: summary.json with run_info.
    const legacy = join(dir, 'runs/legacy');
    mkdirSync(legacy);
    writeFileSync(join(legacy, 'summary.json'), readFileSync(join(dir, 'runs/a/summary.json')));
    expect(cli(dir, ['replay', 'corpus', '--dialect', 'reference', '--jobs', '1', '--out', 'runs/legacy', '--quiet']).code).toBe(0);
    expect(existsSync(join(legacy, '.dice-dialects-run'))).toBe(true);
    // A user's `x.previous` is not the tool's to remove.
    mkdirSync(join(dir, 'runs/a.previous'));
    writeFileSync(join(dir, 'runs/a.previous/mine.txt'), 'mine');
    expect(cli(dir, ['replay', 'corpus', '--dialect', 'reference', '--jobs', '1', '--out', 'runs/a', '--quiet']).code).toBe(0);
    expect(readFileSync(join(dir, 'runs/a.previous/mine.txt'), 'utf8')).toBe('mine');
  });
});

describe('bad output paths: one line, exit 2, no stack trace', () => {
  const cases: Array<[string, string[]]> = [
    ['replay --out /dev/null/x', ['replay', 'in.ndjson', '--dialect', 'reference', '--out', '/dev/null/x']],
    ['replay --out through a file', ['replay', 'in.ndjson', '--dialect', 'reference', '--out', 'in.ndjson/run']],
    ['convert --out DIR', ['convert', 'in.ndjson', '--out', 'dir']],
    ['convert --out /dev/null/x', ['convert', 'in.ndjson', '--out', '/dev/null/x']],
    ['convert --errors DIR', ['convert', 'in.ndjson', '--errors', 'dir']],
    ['convert --out the input', ['convert', 'in.ndjson', '--out', 'in.ndjson']],
    ['generate --out DIR', ['generate', '--games', '1', '--out', 'dir']],
    ['generate --out /dev/null/x', ['generate', '--games', '1', '--out', '/dev/null/x']],
    ['generate --key DIR', ['generate', '--games', '1', '--inject', 'maximum.fewer-dice:0.5', '--out', 'g.ndjson', '--key', 'dir']],
    ['diff --out DIR', ['diff', 'run', 'run', '--out', 'dir']],
    ['diff --out /dev/null/x', ['diff', 'run', 'run', '--out', '/dev/null/x']],
    ['cases --matrix --out DIR', ['cases', '--matrix', '--out', 'dir']],
    ['dialects --compare --out DIR', ['dialects', '--compare', '--format', 'md', '--out', 'dir']],
    ['convert --out ""', ['convert', 'in.ndjson', '--out', '']],
    ['diff --out run/results.ndjson', ['diff', 'run', 'run', '--out', 'run/results.ndjson']],
    ['generate --key the --out file', ['generate', '--games', '1', '--inject', 'maximum.fewer-dice:0.5', '--out', 'g.ndjson', '--key', 'g.ndjson']],
    ['diff --out ""', ['diff', 'run', 'run', '--out', '']],
    ['diff --out run/summary.json', ['diff', 'run', 'run', '--out', 'run/summary.json']],
    ['convert --out a link to the input', ['convert', 'in.ndjson', '--to', 'csv', '--out', 'link.csv']],
    ['convert of a link to the --out file', ['convert', 'link.csv', '--to', 'csv', '--out', 'in.ndjson']],
    ['convert of a folder holding a link to the --out file', ['convert', 'sub', '--to', 'csv', '--out', 'in.ndjson']],
  ];
  it.each(cases)('%s', (_, args) => {
    const dir = tempDir('dice-badout-');
    writeFileSync(join(dir, 'in.ndjson'), records(2));
    mkdirSync(join(dir, 'dir'));
    // The same file under another name: a symbolic link is refused as the file it names.
    symlinkSync('in.ndjson', join(dir, 'link.csv'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync('../in.ndjson', join(dir, 'sub', 'games.ndjson'));
    expect(cli(dir, ['replay', 'in.ndjson', '--dialect', 'reference', '--jobs', '1', '--out', 'run', '--quiet']).code).toBe(0);
    const before = tree(dir);
    expectUsageLine(cli(dir, args), /(--out|--errors|--key) (needs a path|\S+: (is a folder|cannot create it: \/dev\/null is not a folder|cannot create it: .*in\.ndjson is not a folder|is also an input|is the --out file too|is inside the source folder run; the output never goes among the inputs))/);
    expect(tree(dir)).toEqual(before);
  });

  it('a file output over a regular file replaces it; /dev/null is written through, not replaced', () => {
    const dir = tempDir('dice-fileout-');
    writeFileSync(join(dir, 'in.ndjson'), records(2));
    writeFileSync(join(dir, 'old.ndjson'), 'old\n');
    const r = cli(dir, ['convert', 'in.ndjson', '--out', 'old.ndjson']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'old.ndjson'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    expect(cli(dir, ['convert', 'in.ndjson', '--out', '/dev/null']).code).toBe(0);
    expect(spawnSync('test', ['-c', '/dev/null']).status).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['in.ndjson', 'old.ndjson']);
  });
});

describe('stdin and runs that read nothing', () => {
  it('replay - reads standard input', () => {
    const dir = tempDir('dice-stdin-');
    const r = cli(dir, ['replay', '-', '--dialect', 'reference', '--jobs', '1', '--out', 'run'], records(4));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/replayed 4 records/);
    expect(readFileSync(join(dir, 'run/results.ndjson'), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('convert - and a lone - among other sources', () => {
    const dir = tempDir('dice-stdin-');
    writeFileSync(join(dir, 'a.ndjson'), records(1));
    const r = cli(dir, ['convert', 'a.ndjson', '-'], records(3));
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/read 4, unreadable 0/);
  });

  it('zero records from sources that opened: a warning, and --fail-on fails', () => {
    const dir = tempDir('dice-empty-');
    writeFileSync(join(dir, 'blank.ndjson'), '\n\n');
    const plain = cli(dir, ['replay', 'blank.ndjson', '--dialect', 'reference', '--jobs', '1', '--out', 'run']);
    expect(plain.code).toBe(0);
    expect(plain.err).toMatch(/warning: .*no record/);
    for (const failOn of ['diverging', 'unreadable']) {
      const r = cli(dir, ['replay', '-', '--dialect', 'reference', '--jobs', '1', '--out', 'run', '--fail-on', failOn], '');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/warning: .*no record/);
    }
    const conv = cli(dir, ['convert', 'blank.ndjson']);
    expect(conv.code).toBe(1);
    expect(conv.err).toMatch(/warning: .*no record/);
  });
});

/** Resolves when a `.NAME.tmp-*` temporary of `name` exists in `dir`, with its marker written. */
async function temporaryAppears(dir: string, name: string, child: ChildProcess): Promise<string> {
  // A deadline of its own, far beyond a healthy start (well under a second) and inside the test timeout, so a hang says what it waited for.
  const deadline = Date.now() + 50_000;
  for (;;) {
    const t = readdirSync(dir).find((f) => f.startsWith(`.${name}.tmp-`) && existsSync(join(dir, f, '.dice-dialects-tmp')));
    if (t) return t;
    if (child.exitCode !== null) throw new Error(`exited early with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`no temporary .${name}.tmp-* with its marker appeared in ${dir} within 50 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const exitOf = (child: ChildProcess) => new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));

describe('interrupted runs leave no temporary', () => {
  for (const [signal, code, args] of [
    ['SIGINT', 130, ['replay', '-', '--dialect', 'reference', '--jobs', '1', '--out', 'run']],
    ['SIGTERM', 143, ['replay', '-', '--dialect', 'reference', '--out', 'run']],
    ['SIGTERM', 143, ['convert', '-', '--out', 'run']],
    ['SIGINT', 130, ['convert', '-', '--out', 'out.ndjson', '--errors', 'run']],
    ['SIGHUP', 129, ['generate', '--games', '100000', '--jobs', '1', '--out', 'run']],
  ] as const) {
    it(`${args[0]} ${args.slice(-2).join(' ')}: ${signal} removes the temporary and exits ${code}`, async () => {
      const dir = tempDir('dice-signal-');
      // Standard input held open: the run waits for records with its temporary in place.
      const child = spawn(process.execPath, [bin, ...args], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
      const exited = exitOf(child);
      child.stdin!.write(records(2));
      await temporaryAppears(dir, 'run', child);
      child.kill(signal);
      expect(await exited).toEqual({ code, signal: null });
      expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
      expect(existsSync(join(dir, 'run'))).toBe(false);
    });
  }

  it('kill -9 leaves a temporary; the next run of the same --out removes it, and nothing else', async () => {
    const dir = tempDir('dice-kill9-');
    const child = spawn(process.execPath, [bin, 'replay', '-', '--dialect', 'reference', '--jobs', '1', '--out', 'run'], { cwd: dir, stdio: ['pipe', 'ignore', 'ignore'] });
    const exited = exitOf(child);
    const stale = await temporaryAppears(dir, 'run', child);
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    expect(existsSync(join(dir, stale, '.dice-dialects-tmp'))).toBe(true);
    // Look-alikes that are not the tool's, or not this output's, stay.
    mkdirSync(join(dir, '.run.tmp-Mine00'));
    writeFileSync(join(dir, '.run.tmp-Mine00/notes.txt'), 'mine');
    mkdirSync(join(dir, '.other.tmp-abc123'));
    writeFileSync(join(dir, '.other.tmp-abc123/.dice-dialects-tmp'), JSON.stringify({ tool: 'dice-dialects', pid: 999999999 }));
    // A temporary of a run still going (this test's own process) stays too.
    mkdirSync(join(dir, '.run.tmp-live00'));
    writeFileSync(join(dir, '.run.tmp-live00/.dice-dialects-tmp'), JSON.stringify({ tool: 'dice-dialects', pid: process.pid }));
    const r = cli(dir, ['replay', '-', '--dialect', 'reference', '--jobs', '1', '--out', 'run', '--quiet'], records(2));
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['.other.tmp-abc123', '.run.tmp-Mine00', '.run.tmp-live00', 'run']);
  });
});
