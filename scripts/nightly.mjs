// Nightly corpus run (scripts/nightly.sh runs this): generate, fetch or name by URL the corpora a
// config names, replay them, diff against the last good run, promote only when nothing
// broke, keep the newest runs and always the last good one.
// Usage: node scripts/nightly.mjs [config.json] [state-folder] [--allow-gone] [--allow-config-change]
// Exit: 0 nothing broke, 1 something broke, games are gone, the configuration changed or an
// answer key scores worse (the diff lists them),
// 2 the run itself failed (bad config, replay failed, last-good missing after the first run).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunFolder } from '../dist/output/output-path.js';
import { fetchEntry, fetchEntryProblem } from './nightly-fetch.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin/dice-dialects.js');

class NightlyError extends Error {}
const fail = (message) => {
  throw new NightlyError(message);
};

const TOP_FIELDS = new Set(['about', 'dialects', 'corpora', 'set', 'jobs', 'continueAfterDivergence', 'allowGone', 'keep']);
const ENTRY_FIELDS = new Set(['name', 'generate', 'url', 'fetch', 'about']);
const kebab = (k) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The config, checked field by field: a field the job would ignore is an error, not a surprise. */
function readConfig(path) {
  let c;
  try {
    c = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    fail(`config ${path}: ${e.message}`);
  }
  for (const k of Object.keys(c)) if (!TOP_FIELDS.has(k)) fail(`config ${path}: unknown field "${k}" (known: ${[...TOP_FIELDS].join(', ')})`);
  const dialects = c.dialects ?? 'all';
  if (dialects !== 'all' && !(Array.isArray(dialects) && dialects.length > 0 && dialects.every((d) => typeof d === 'string'))) fail(`config ${path}: "dialects" must be "all" or a list of names`);
  if (!Array.isArray(c.corpora) || c.corpora.length === 0) fail(`config ${path}: "corpora" must list at least one entry`);
  const names = new Set();
  for (const [i, e] of c.corpora.entries()) {
    const at = `config ${path}: corpora[${i}]`;
    for (const k of Object.keys(e)) if (!ENTRY_FIELDS.has(k)) fail(`${at}: unknown field "${k}"`);
    if (typeof e.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(e.name)) fail(`${at}: "name" must be letters, digits, - or _`);
    if (names.has(e.name)) fail(`${at}: the name "${e.name}" is used twice`);
    names.add(e.name);
    if ([e.generate, e.url, e.fetch].filter((x) => x !== undefined).length !== 1) fail(`${at}: give exactly one of "generate", "url" or "fetch"`);
    if (e.fetch !== undefined) {
      const problem = fetchEntryProblem(e);
      if (problem) fail(`${at}: ${problem}`);
    }
    if (e.url !== undefined && (typeof e.url !== 'string' || !/^https?:\/\//.test(e.url))) fail(`${at}: "url" must be an http(s) URL`);
    if (e.generate !== undefined) {
      if (typeof e.generate !== 'object' || e.generate === null) fail(`${at}: "generate" must be an object of generate options`);
      for (const k of ['dialect', 'games', 'seed', 'format']) if (e.generate[k] === undefined) fail(`${at}: generate.${k} is required`);
      if ('out' in e.generate || 'key' in e.generate) fail(`${at}: generate.out and generate.key are chosen by the nightly job`);
    }
  }
  if (c.set !== undefined && !(Array.isArray(c.set) && c.set.every((s) => typeof s === 'string'))) fail(`config ${path}: "set" must be a list of path=value`);
  if (c.jobs !== undefined && !(Number.isInteger(c.jobs) && c.jobs >= 1)) fail(`config ${path}: "jobs" must be a whole number ≥ 1`);
  if (c.keep !== undefined && !(Number.isInteger(c.keep) && c.keep >= 1)) fail(`config ${path}: "keep" must be a whole number ≥ 1`);
  for (const k of ['continueAfterDivergence', 'allowGone']) if (c[k] !== undefined && typeof c[k] !== 'boolean') fail(`config ${path}: "${k}" must be true or false`);
  return { ...c, dialects };
}

/** generate options as command-line arguments: every field, none dropped (the command refuses what it does not know). */
function generateArgs(g) {
  const args = [];
  for (const [k, v] of Object.entries(g)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      if (typeof one === 'boolean') args.push(one ? `--${kebab(k)}` : `--no-${kebab(k)}`);
      else args.push(`--${kebab(k)}`, String(one));
    }
  }
  return args;
}

const canonical = (v) => (Array.isArray(v) ? `[${v.map(canonical).join(',')}]` : v && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}` : JSON.stringify(v));
const toolVersion = () => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;

function cli(args, opts = {}) {
  return spawnSync(process.execPath, [bin, ...args], { stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit'], encoding: 'utf8' });
}

/** The corpus file of a generate entry: named by its content, so a changed entry is a new file. */
function corpusFile(corpora, e) {
  const key = createHash('sha256').update(canonical({ generate: e.generate, tool: toolVersion() })).digest('hex').slice(0, 12);
  const ext = { csv: 'csv', 'opening-book': 'tsv' }[e.generate.format] ?? 'ndjson';
  return join(corpora, `${e.name}.${key}.${ext}`);
}

/** A new run's folder name: the UTC time to the millisecond (sorts as it runs), never an existing run's. */
function stamp(runs) {
  const base = new Date().toISOString().replace(/[-:]/g, '');
  let name = base;
  for (let i = 2; existsSync(join(runs, name)); i++) name = `${base}-${String(i).padStart(3, '0')}`;
  return name;
}

/** Where last-good points (relative to the state folder), or null when there is no link at all. */
function lastGoodTarget(state) {
  const link = join(state, 'last-good');
  try {
    if (!lstatSync(link).isSymbolicLink()) fail(`${link} is not a symbolic link; it is never replaced`);
  } catch (e) {
    if (e instanceof NightlyError) throw e;
    return null;
  }
  return readlinkSync(link);
}

function promote(state, run) {
  const link = join(state, 'last-good');
  const tmp = join(state, '.last-good.new');
  rmSync(tmp, { force: true });
  symlinkSync(join('runs', run), tmp);
  renameSync(tmp, link);
}

/** Newest `keep` runs stay, and the one last-good points to; only run folders the tool wrote are removed. */
function prune(state, keep) {
  const runsDir = join(state, 'runs');
  const good = lastGoodTarget(state);
  const goodName = good === null ? null : resolve(state, good);
  const runs = readdirSync(runsDir).filter(isRunName).sort();
  for (const r of runs.slice(0, Math.max(0, runs.length - keep))) {
    const dir = join(runsDir, r);
    if (resolve(dir) === goodName || !isRunFolder(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.diff.md`, { force: true });
    rmSync(`${dir}.scores.json`, { force: true });
  }
}

/** Names in runs/ that are runs (not a run's diff or scores beside it). */
const isRunName = (f) => !f.startsWith('.') && !f.endsWith('.diff.md') && !f.endsWith('.scores.json');

/** Counts whose rise (or fall, for truePositives) makes a score worse. */
const WORSE_UP = ['falseNegatives', 'falsePositives', 'misplaced', 'missing'];

/** Each answer key's overall score of a run: { corpus name: overall }. */
function scoreRun(keys, out) {
  const scores = {};
  for (const { name, key } of keys) {
    const r = cli(['score', '--key', key, '--results', out, '--json'], { stdout: 'pipe' });
    if (r.status !== 0 && r.status !== 1) fail(`score ${name} failed (exit ${r.status ?? r.signal}); last good run kept`);
    scores[name] = JSON.parse(r.stdout).overall;
  }
  return scores;
}

/** How tonight's scores are worse than last good's, as sentences (keys new tonight are not compared). */
function worseScores(before, after) {
  const out = [];
  for (const [name, now] of Object.entries(after)) {
    const was = before[name];
    if (!was) continue;
    if (now.truePositives < was.truePositives) out.push(`${name}: ${was.truePositives} → ${now.truePositives} planted divergences found`);
    for (const k of WORSE_UP) if (now[k] > was[k]) out.push(`${name}: ${k} ${was[k]} → ${now[k]}`);
  }
  return out;
}

/**
 * Every night goes into the run history (STATE/history.db, or NIGHTLY_HISTORY: a file or a
 * postgres:// URL), promoted or not; a night whose replay failed is recorded as failed.
 */
function recordNight(state, run, outcome) {
  const db = process.env.NIGHTLY_HISTORY || join(state, 'history.db');
  const what = outcome.failed !== undefined ? ['--failed', outcome.failed] : [join(state, 'runs', run), '--nightly', outcome.promoted ? '--promoted' : '--no-promoted'];
  const r = cli(['history', 'record', ...what, '--label', run, '--db', db, '--quiet'], { stdout: 'inherit' });
  if (r.status !== 0) fail(`recording the night into the history ${db} failed (exit ${r.status ?? r.signal})`);
}

function nightly(argv) {
  const allowFlag = argv.includes('--allow-gone');
  const allowConfigChange = argv.includes('--allow-config-change');
  const positional = argv.filter((a) => a !== '--allow-gone' && a !== '--allow-config-change');
  const unknown = positional.find((a) => a.startsWith('-'));
  if (unknown) fail(`unknown option ${unknown} (usage: scripts/nightly.sh [config.json] [state-folder] [--allow-gone] [--allow-config-change])`);
  const config = resolve(positional[0] ?? join(root, 'scripts/nightly.config.json'));
  const state = resolve(positional[1] ?? join(root, 'reports/nightly'));
  const corpora = resolve(process.env.NIGHTLY_CORPORA ?? join(root, 'corpora/generated/nightly'));
  const c = readConfig(config);
  const allowGone = allowFlag || c.allowGone === true;
  const runsDir = join(state, 'runs');

  // Before any work: after the first run a last-good must exist and be a run.
  const good = lastGoodTarget(state);
  const earlier = existsSync(runsDir) && readdirSync(runsDir).some(isRunName);
  if (good !== null && !isRunFolder(resolve(state, good))) fail(`${join(state, 'last-good')} points to ${good}, which is missing or not a run folder: restore it (or point it at a good run) before the next night`);
  if (good === null && earlier) fail(`no last-good in ${state} although runs exist there: point last-good at the last good run (or start afresh in an empty state folder)`);

  mkdirSync(corpora, { recursive: true });
  mkdirSync(runsDir, { recursive: true });
  const sources = [];
  /** Answer keys of the generated corpora that have one (generate --inject writes it). */
  const keys = [];
  for (const e of c.corpora) {
    if (e.url) {
      sources.push(e.url);
      continue;
    }
    if (e.fetch) {
      // Continued each night; a failed fetch keeps the games its folder has (nightly-fetch.mjs).
      const { folder, note } = fetchEntry(corpora, e);
      if (note) process.stderr.write(`nightly: ${note}\n`);
      if (folder) sources.push(folder);
      continue;
    }
    const file = corpusFile(corpora, e);
    if (!existsSync(file)) {
      const r = cli(['generate', ...generateArgs(e.generate), '--out', file, '--key', `${file}.key.json`, '--quiet']);
      if (r.status !== 0) fail(`generate ${e.name} failed (exit ${r.status ?? r.signal})`);
    }
    sources.push(file);
    if (existsSync(`${file}.key.json`)) keys.push({ name: e.name, key: `${file}.key.json` });
  }

  const run = stamp(runsDir);
  const out = join(runsDir, run);
  const dialectArgs = c.dialects === 'all' ? ['--all-dialects'] : c.dialects.flatMap((d) => ['--dialect', d]);
  const replay = cli([
    'replay',
    ...sources,
    ...dialectArgs,
    ...(c.set ?? []).flatMap((s) => ['--set', s]),
    ...(c.jobs ? ['--jobs', String(c.jobs)] : []),
    ...(c.continueAfterDivergence ? ['--continue-after-divergence'] : []),
    '--out',
    out,
    '--quiet',
  ]);
  if (replay.status !== 0) {
    recordNight(state, run, { failed: `replay failed (exit ${replay.status ?? replay.signal})` });
    fail(`replay failed (exit ${replay.status ?? replay.signal}); last good run kept`);
  }

  // Where a corpus has an answer key, the run is scored; a worse score than last good's blocks promotion.
  const scores = scoreRun(keys, out);
  writeFileSync(`${out}.scores.json`, `${JSON.stringify(scores, null, 2)}\n`);

  let status = 0;
  if (good === null) {
    say(`nightly: first run in ${state}: nothing to compare against\n`);
  } else {
    // diff names a change of dialects, overrides, options or tool version, and counts it as broken unless allowed.
    const diff = cli(['diff', resolve(state, good), out, '--out', `${out}.diff.md`, ...(allowGone ? ['--allow-gone'] : []), ...(allowConfigChange ? ['--allow-config-change'] : [])], { stdout: 'pipe' });
    if (diff.status !== 0 && diff.status !== 1) fail(`diff failed (exit ${diff.status ?? diff.signal}); last good run kept`);
    status = diff.status;
    say(readFileSync(`${out}.diff.md`, 'utf8'));
    let before = {};
    try {
      before = JSON.parse(readFileSync(`${resolve(state, good)}.scores.json`, 'utf8'));
    } catch {
      // A last good run from before scores were kept: nothing to compare.
    }
    const worse = worseScores(before, scores);
    if (worse.length > 0) {
      say(`\n## Answer keys score worse than the last good run\n\n${worse.map((w) => `- ${w}`).join('\n')}\n`);
      status = 1;
    }
  }
  if (status === 0) {
    promote(state, run);
    say(`nightly: ${out} is the new last good run\n`);
  } else {
    process.stderr.write(`nightly: regressions against ${good}; last good run kept\n`);
  }
  recordNight(state, run, { promoted: status === 0 });
  prune(state, c.keep ?? 7);
  return status;
}

// A reader that closed stdout (`nightly.sh | head`) changes nothing: the job goes on and keeps its exit code.
let stdoutOpen = true;
process.stdout.on('error', (e) => {
  if (e?.code !== 'EPIPE') throw e;
  stdoutOpen = false;
});
function say(text) {
  if (stdoutOpen) process.stdout.write(text);
}

try {
  process.exitCode = nightly(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof NightlyError)) throw e;
  process.stderr.write(`nightly: ${e.message}\n`);
  process.exitCode = 2;
}
