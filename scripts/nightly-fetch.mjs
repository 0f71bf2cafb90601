#!/usr/bin/env node
// The `fetch` entries of a nightly config: {"name", "fetch": {"site", "player" | "playerEnv",
// "baseUrl"?, "tokenEnv"?, "cookieEnv"?, "rate"?, "concurrency"?}}. Each is fetched into
// CORPORA/NAME (continued each night: only games not fetched yet are asked for) and that
// folder is a replay source as it is. An entry whose player variable is unset is skipped;
// a fetch that fails keeps the games its folder already has.
// Usage: node scripts/nightly-fetch.mjs config.json corpora-folder  → one folder per line
// (or import { fetchEntryProblem, fetchEntry } from a nightly job).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FIELDS = new Set(['site', 'player', 'playerEnv', 'baseUrl', 'tokenEnv', 'cookieEnv', 'rate', 'concurrency']);

/** Why a fetch entry cannot run, or null. */
export function fetchEntryProblem(e) {
  const f = e.fetch;
  if (typeof f !== 'object' || f === null) return '"fetch" must be an object';
  for (const k of Object.keys(f)) if (!FIELDS.has(k)) return `unknown field fetch.${k} (known: ${[...FIELDS].join(', ')})`;
  if (!['fortemate', 'dicechess-com'].includes(f.site)) return 'fetch.site must be "fortemate" or "dicechess-com"';
  if ((f.player === undefined) === (f.playerEnv === undefined)) return 'give exactly one of fetch.player or fetch.playerEnv';
  if (f.baseUrl !== undefined && !/^https?:\/\//.test(String(f.baseUrl))) return 'fetch.baseUrl must be an http(s) URL';
  return null;
}

/** Runs one fetch entry; resolves to the folder to replay (null when skipped or empty) and a note for the log. */
export function fetchEntry(corpora, e) {
  const f = e.fetch;
  const player = f.player ?? process.env[f.playerEnv] ?? '';
  if (String(player).trim() === '') return { folder: null, note: `${e.name}: ${f.playerEnv} is not set; fetch skipped` };
  const out = join(corpora, e.name);
  const args = ['fetch', f.site, '--player', String(player), '--out', out, '--quiet'];
  if (f.baseUrl) args.push('--base-url', f.baseUrl);
  if (f.tokenEnv) args.push('--token-env', f.tokenEnv);
  if (f.cookieEnv) args.push('--cookie-env', f.cookieEnv);
  if (f.rate !== undefined) args.push('--rate', String(f.rate));
  if (f.concurrency !== undefined) args.push('--concurrency', String(f.concurrency));
  const r = spawnSync(process.execPath, [join(root, 'bin/dice-dialects.js'), ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  const has = existsSync(join(out, 'manifest.json'));
  const note = r.status === 0 ? null : `${e.name}: fetch failed (exit ${r.status ?? r.signal}); ${has ? 'replaying the games it already has' : 'nothing to replay'}`;
  return { folder: has ? out : null, note };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [config, corpora] = process.argv.slice(2);
  if (!config || !corpora) {
    process.stderr.write('usage: node scripts/nightly-fetch.mjs config.json corpora-folder\n');
    process.exit(2);
  }
  const c = JSON.parse(readFileSync(config, 'utf8'));
  for (const e of c.corpora ?? []) {
    if (e.fetch === undefined) continue;
    const problem = fetchEntryProblem(e);
    if (problem) {
      process.stderr.write(`nightly: config ${config}: ${e.name}: ${problem}\n`);
      process.exit(2);
    }
    const { folder, note } = fetchEntry(resolve(corpora), e);
    if (note) process.stderr.write(`nightly: ${note}\n`);
    if (folder) process.stdout.write(`${folder}\n`);
  }
}
