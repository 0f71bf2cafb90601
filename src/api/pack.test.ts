import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/index.js';

const exec = promisify(execFile);
const root = packageRoot();
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const SAMPLE = 'corpora/samples/dicechess-com/games.csv.gz';

/** The README's library example (the block after the api-example marker) and the output its comments promise. */
async function readmeExample(): Promise<{ code: string; expected: string[] }> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const m = /<!-- api-example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README.md has no api-example block');
  const expected = m[1].split('\n').filter((l) => l.startsWith('// ') && !/^\/\/ [A-Z]/.test(l)).map((l) => l.slice(3));
  return { code: m[1], expected };
}

// What a TypeScript user writes (Node's types come from this project's @types/node): every export used with its types, strict mode.
const TS_USER = `import { judgeTurn, legalFirstMoves, loadDialect, readRecords, replayRecord, runReplay, RULE_IDS, type Dialect, type GameResultLine, type ReadItem, type TurnJudgement } from 'dice-dialects';
import { loadDialectObject, legalTurns as browserTurns, type RuleId } from 'dice-dialects/rules';
import reference from 'dice-dialects/dialects/reference.json' with { type: 'json' };

const d = loadDialect('reference');
if (!d.ok) throw new Error(d.error[0].message);
const dialect: Dialect = d.value;
const moves: string[] = legalFirstMoves(dialect, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB').ok ? [] : [];
const v = judgeTurn(dialect, '8/8/8/8/8/8/8/K6k w - - 0 1 K', ['a1a2']);
if (v.ok) {
  const j: TurnJudgement = v.value;
  if (!j.legal) {
    const rule: RuleId = j.rule;
    console.log(rule, RULE_IDS[rule], j.microMove ?? 'turn');
  }
}
const fromObject = loadDialectObject(reference, ['maximum=micro-move'], { known: [reference] });
if (fromObject.ok) console.log(browserTurns(fromObject.value, '8/8/8/8/8/8/8/K6k w - - 0 1 K', { limit: 5 }));
for await (const item of readRecords([{ name: 'inline.ndjson', data: '' }], { format: 'ndjson' })) {
  const it: ReadItem = item;
  if (it.kind === 'record') {
    const line: GameResultLine = replayRecord(it.record, dialect);
    console.log(line.status);
  }
}
const run = await runReplay({ sources: ['x'], dialects: ['reference'], out: 'run' });
if (!run.ok) console.log(run.error.code);
else console.log(run.value.summary.totals.lines, moves.length);
`;

/**
 * A lockfile for a project that depends on the tarball alone: this project's own
 * resolutions of the runtime dependencies. The npm cache holds their tarballs (npm ci
 * fetched them) but not the registry's version lists, which a plain `npm install` asks for.
 */
async function consumerLock(manifest: { name: string; version: string; dependencies: Record<string, string> }, tarball: string): Promise<unknown> {
  const ours = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const packages: Record<string, unknown> = {
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies },
    'node_modules/dice-dialects': { version: pkg.version, resolved: `file:${tarball}`, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [path, entry] of Object.entries(ours.packages)) if (path !== '' && entry.dev !== true) packages[path] = entry;
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages };
}

describe('the npm package', () => {
  let dir: string;
  let tarball: string;
  let pack: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dice-pack-'));
    // `prepack` cleans and builds; npm test has just built (pretest), so the test packs what is there.
    expect(existsSync(join(root, 'dist', 'index.js')) && existsSync(join(root, 'dist', 'explore', 'page.js'))).toBe(true);
    const { stdout } = await exec(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
    pack = JSON.parse(stdout)[0];
    tarball = join(dir, pack.filename);
    console.log(`npm pack: ${pack.filename} ${pack.size} bytes packed, ${pack.unpackedSize} bytes unpacked, ${pack.files.length} files`);
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds what a user needs (built code with declarations, bin, dialects, one sample corpus, README, LICENSE) and no tests or other corpora', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.prepack).toMatch(/build/);
    const files = pack.files.map((f) => f.path);
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/api/rules.js', 'dist/api/rules.d.ts', 'dist/explore/page.js', 'dist/worker-entry.cjs', 'dist/bundle/cli.cjs', 'dist/bundle/cli.cjs.cache', 'dist/bundle-loader.cjs', 'dist/bundle/worker-entry.cjs', 'dist/bundle/worker-bundle.cjs', 'dist/bundle/worker-bundle.cjs.cache', 'dist/bundle/piscina-worker.cjs', 'bin/dice-dialects.js', 'dialects/reference.json', 'dialects/cases/rules.json', SAMPLE, 'README.md', 'LICENSE', 'package.json']) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => /\.test\.|test-support|fixtures|^src\/|\.map$|^scripts\/|^reports\//.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('corpora/') && f !== SAMPLE && !f.endsWith('README.md'))).toEqual([]);
    expect(pack.size).toBeLessThan(2.5 * 1024 * 1024);
  });

  it('installs offline into an empty project: npx dice-dialects replay and explore, the README example as .mjs, a strict .ts file under tsc', async () => {
    const app = join(dir, 'app');
    await mkdir(app);
    const manifest = { name: 'app', version: '1.0.0', private: true, type: 'module', dependencies: { 'dice-dialects': `file:${tarball}` } };
    await writeFile(join(app, 'package.json'), JSON.stringify(manifest));
    await writeFile(join(app, 'package-lock.json'), JSON.stringify(await consumerLock(manifest, tarball)));
    // Every dependency's tarball is in the npm cache since `npm ci`: no registry is asked.
    await exec(NPM, ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: app });

    const replay = await exec('npx', ['--offline', 'dice-dialects', 'replay', `node_modules/dice-dialects/${SAMPLE}`, '--all-dialects', '--jobs', '2', '--out', 'run', '--quiet'], { cwd: app });
    expect(replay.stdout).toContain('run/report.md');
    const summary = JSON.parse(await readFile(join(app, 'run', 'summary.json'), 'utf8'));
    expect(summary.totals.lines).toBe(200 * readdirSync(join(root, 'dialects')).filter((f) => f.endsWith('.json')).length);
    expect(summary.byDialect['dicechess-com'].conforming).toBe(200);
    // The reports link their reproductions to the explorer page beside them.
    expect(await readFile(join(app, 'run', 'report.md'), 'utf8')).toMatch(/\]\(<explorer\.html#dfen=[^>]+>\)/);
    expect(existsSync(join(app, 'run', 'explorer.html'))).toBe(true);
    const explore = await exec('npx', ['--offline', 'dice-dialects', 'explore', '--out', 'site'], { cwd: app });
    expect(explore.stdout.trim()).toBe(join('site', 'index.html'));
    expect(existsSync(join(app, 'site', 'index.html'))).toBe(true);

    const { code, expected } = await readmeExample();
    await writeFile(join(app, 'example.mjs'), code);
    const ran = await exec(process.execPath, ['example.mjs'], { cwd: app });
    expect(ran.stdout.trim().split('\n')).toEqual(expected);

    await writeFile(join(app, 'user.ts'), TS_USER);
    await writeFile(join(app, 'example.ts'), code);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', noEmit: true, skipLibCheck: false, resolveJsonModule: true, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] }, include: ['*.ts'] }),
    );
    const tsc = await exec(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app }).catch((e: { stdout: string; stderr: string }) => ({ stdout: e.stdout, stderr: `${e.stderr} tsc failed` }));
    expect(`${tsc.stdout}${tsc.stderr}`).toBe('');
  }, 300_000);
});
