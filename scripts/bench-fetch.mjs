#!/usr/bin/env node
// Games/s fetched from the loopback fakes (scripts/fake-site.mjs), whole process
// (`node bin/dice-dialects.js fetch …`), at the default politeness (--rate 2
// --concurrency 2) and unthrottled (--rate 0 --concurrency 8). Prints the load average.
// Usage (after npm run build): node scripts/bench-fetch.mjs [polite-games] [fast-games]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFake } from './fake-site.mjs';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const politeGames = Number(process.argv[2] ?? 40);
const fastGames = Number(process.argv[3] ?? 2000);
const fake = await loadFake();
const TOKEN = 'bench-token-0123456789';
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

async function measure(site, n, flags) {
  const games = site === 'fortemate' ? fake.fortemateGames(n, 'bench') : fake.dicechessGames(n, 'bench');
  const player = site === 'fortemate' ? 'bench-player' : '482';
  const server = await fake.startFakeSite(site, { games, player, pageSize: 50, token: site === 'dicechess-com' ? TOKEN : undefined });
  const dir = mkdtempSync(join(tmpdir(), 'bench-fetch-'));
  const out = join(dir, 'out');
  const before = load();
  const t0 = process.hrtime.bigint();
  // Asynchronous child: the fake answers from this process while the fetch runs.
  const child = spawn(process.execPath, [join(root, 'bin/dice-dialects.js'), 'fetch', site, '--player', player, '--out', out, '--base-url', server.url, '--quiet', ...flags], {
    env: { ...process.env, DICECHESS_TOKEN: TOKEN },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise((r) => child.on('exit', r));
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  const bytes = games.reduce((s, g) => s + g.body.length, 0);
  console.log(
    `${site.padEnd(13)} ${flags.join(' ').padEnd(27)} ${String(m.counts.fetched).padStart(5)} games (${(bytes / n / 1024).toFixed(1)} kB each) in ${secs.toFixed(2)} s = ${(m.counts.fetched / secs).toFixed(1)} games/s  exit ${code}  load ${before} → ${load()}`,
  );
  return m.counts.fetched / secs;
}

console.log(`node ${process.version}, load average ${load()}`);
for (const site of ['fortemate', 'dicechess-com']) {
  const polite = await measure(site, politeGames, []);
  const fast = await measure(site, fastGames, ['--rate', '0', '--concurrency', '8']);
  console.log(`${site}: unthrottled / polite = ${(fast / polite).toFixed(0)}×`);
}
