import { spawnSync } from 'node:child_process';
import { copyFileSync, createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { packageRoot } from '../../dialects/paths.js';

export const BIN = join(packageRoot(), 'bin/dice-dialects.js');

/** The built command line as a whole process (what users run). */
export function cli(args: string[], opts: { env?: Record<string, string> } = {}): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...opts.env }, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A record id that would run as script if any page forgot to escape it. */
export const EVIL_ID = '<script>document.title="pwned"</script><img src=x onerror=alert(1)>';

/**
 * Real run folders for the history's tests, from generated games (and one game whose id holds
 * markup): night 1 and night 2 judge the same ids, with some games' records swapped for
 * another dialect's games (so some break and some are fixed), night 3 judges fewer games.
 */
export function makeRuns(dir: string): { runs: string[] } {
  const gen = (dialect: string, seed: string, out: string) => {
    const r = cli(['generate', '--dialect', dialect, '--games', '40', '--seed', seed, '--format', 'ndjson', '--out', out, '--quiet']);
    if (r.code !== 0) throw new Error(`generate failed: ${r.err}`);
    return readFileSync(out, 'utf8').trim().split('\n');
  };
  const own = gen('dicechess-com', 'history-tests', join(dir, 'own.ndjson'));
  const other = gen('wikipedia-two-dice', 'history-tests-2', join(dir, 'other.ndjson'));
  const swapped = (from: number, to: number) =>
    own.map((line, i) => (i >= from && i < to ? JSON.stringify({ ...JSON.parse(other[i]), id: (JSON.parse(line) as { id: string }).id }) : line));
  const evil = { ...JSON.parse(own[0]), id: EVIL_ID };
  const nights = [swapped(30, 36), swapped(0, 10), swapped(0, 10).slice(0, 30)];
  // Records an export broke the same way (no turns) are folded past the first ten: 14, then none, then 25.
  const faults = (n: number, broken: boolean) =>
    own.slice(0, n).map((line, i) => {
      const { turns, ...rest } = JSON.parse(line) as { turns: unknown };
      return JSON.stringify({ ...rest, id: `fault-${i}`, ...(broken ? {} : { turns }) });
    });
  const faultNights = [faults(14, true), faults(14, false), faults(25, true)];
  const runs: string[] = [];
  // One corpus folder, rewritten each night (as a nightly's fetched corpus is): the sources keep their names.
  const corpus = join(dir, 'corpus');
  mkdirSync(corpus, { recursive: true });
  nights.forEach((lines, i) => {
    writeFileSync(join(corpus, 'games.ndjson'), `${lines.join('\n')}\n`);
    writeFileSync(join(corpus, 'faults.ndjson'), `${faultNights[i].join('\n')}\n`);
    if (i < 2) writeFileSync(join(corpus, 'evil.ndjson'), `${JSON.stringify(evil)}\n`);
    else rmSync(join(corpus, 'evil.ndjson'), { force: true });
    const out = join(dir, `night-${i + 1}`);
    const r = cli(['replay', corpus, '--dialect', 'dicechess-com', '--dialect', 'reference', '--jobs', '1', '--quiet', '--out', out]);
    if (r.code !== 0 && r.code !== 1) throw new Error(`replay failed (${r.code}): ${r.err}`);
    runs.push(out);
  });
  return { runs };
}

/**
 * A run folder with `lines` conforming results under one dialect, its summary taken from a
 * real run and its counts set to match: big enough to kill a recording half-way.
 */
export async function syntheticRun(from: string, dir: string, lines: number, dialect = 'reference'): Promise<void> {
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(from, '.dice-dialects-run'), join(dir, '.dice-dialects-run'));
  const summary = JSON.parse(readFileSync(join(from, 'summary.json'), 'utf8'));
  const counts = { lines, conforming: lines, diverging: 0, unreadable: 0, findings: 0 };
  summary.dialects = [dialect];
  summary.byDialect = { [dialect]: counts };
  summary.byRule = {};
  summary.totals = counts;
  summary.run_info.startedAt = new Date().toISOString();
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary));
  const out = createWriteStream(join(dir, 'results.ndjson'));
  for (let i = 0; i < lines; i++) {
    const line = `{"id":"synthetic-${i}","dialect":"${dialect}","status":"conforming","findings":[],"index":${i},"source":"synthetic.ndjson","turns":${i % 60}}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}
