import type { CommandModule } from 'yargs';
import { packageRoot } from '../../dialects/paths.js';
import { SITES, SITE_NAMES, type Site, progressLine, readIdsFile, runFetch } from '../../fetch/index.js';
import { CLIENT_DEFAULTS } from '../../fetch/http.js';
import { UsageError } from '../usage-error.js';
import { readFileSync } from 'node:fs';

interface Args {
  site: Site['name'];
  player?: string;
  ids?: string;
  out: string;
  baseUrl?: string;
  since?: string;
  limit?: number;
  concurrency: number;
  rate: number;
  timeout: number;
  tokenEnv?: string;
  cookieEnv?: string;
  pageSize: number;
  retryUnavailable: boolean;
  quiet: boolean;
  failOn?: 'failed';
}

const whole = (name: string, v: number | undefined, min: number, max = Number.MAX_SAFE_INTEGER): void => {
  if (v !== undefined && (!Number.isInteger(v) || v < min || v > max)) throw new UsageError(`--${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ' up'}, not ${v}`);
};

function version(): string {
  try {
    return String(JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')).version);
  } catch {
    return 'unknown';
  }
}

export const fetchCommand: CommandModule<object, Args> = {
  command: 'fetch <site>',
  describe: "Fetch a player's games (or listed ids) from a site's API into a corpus folder replay reads as it is; incremental and resumable",
  builder: (y) =>
    y
      .positional('site', {
        choices: [...SITE_NAMES, 'dicechess.com', 'dicechess'],
        coerce: (s: string) => (s === 'dicechess.com' || s === 'dicechess' ? 'dicechess-com' : s),
        demandOption: true,
        describe: 'The site whose API to ask',
      })
      .option('player', { type: 'string', describe: 'Player whose finished games to list (Fortemate guest id, dicechess.com player id)' })
      .option('ids', { type: 'string', describe: 'Game ids instead of a listing: a file with one per line, or a history-list JSON' })
      .option('out', { type: 'string', demandOption: true, describe: 'Corpus folder (new, empty, or one an earlier fetch made: it then continues)' })
      .option('base-url', { type: 'string', describe: "API base (default: the site's public API; a mirror or a local fake)" })
      .option('since', { type: 'string', describe: 'Only games finished (Fortemate) or started (dicechess.com) at or after this ISO time' })
      .option('limit', { type: 'number', describe: 'Fetch at most this many games in this run' })
      .option('concurrency', { type: 'number', default: 2, describe: 'Requests in flight at once' })
      .option('rate', { type: 'number', default: 2, describe: 'Requests per second at most (0 = no limit, for mirrors)' })
      .option('timeout', { type: 'number', default: CLIENT_DEFAULTS.timeoutMs / 1000, describe: 'Seconds to connect, to get headers, and of body silence; an attempt gets 4× this in all' })
      .option('token-env', { type: 'string', describe: 'Environment variable holding the login token, sent as Authorization (dicechess.com default: DICECHESS_TOKEN)' })
      .option('cookie-env', { type: 'string', describe: 'Environment variable holding a Cookie header to send as well (dicechess.com may want one: unverified); never written anywhere' })
      .option('page-size', { type: 'number', default: 50, describe: 'dicechess.com: rows asked for per history page' })
      .option('retry-unavailable', { type: 'boolean', default: false, describe: 'Ask again for games an earlier run found unavailable (e.g. a history not yet revealed)' })
      .option('quiet', { type: 'boolean', default: false, describe: 'No progress line or summary' })
      .option('fail-on', { choices: ['failed'] as const, describe: 'Exit 1 when any game of the folder is failed' })
      .example('$0 fetch fortemate --player 6f1c0b4e-…  --out corpora/fetched/fm', '')
      .example('DICECHESS_TOKEN=… $0 fetch dicechess-com --player 482 --out corpora/fetched/dc', '')
      .example('$0 replay corpora/fetched/dc --dialect dicechess-com --out runs/dc', '') as never,
  handler: async (argv) => {
    const site = SITES[argv.site];
    if ((argv.player === undefined) === (argv.ids === undefined)) throw new UsageError('name either --player or --ids');
    if (argv.player !== undefined && String(argv.player).trim() === '') throw new UsageError('--player must not be empty');
    whole('limit', argv.limit, 1);
    whole('concurrency', argv.concurrency, 1, 64);
    whole('page-size', argv.pageSize, 1, 1000);
    if (!Number.isFinite(argv.rate) || argv.rate < 0) throw new UsageError(`--rate must be a number ≥ 0 (0 = no limit), not ${argv.rate}`);
    if (!Number.isFinite(argv.timeout) || argv.timeout <= 0) throw new UsageError(`--timeout must be a number of seconds > 0, not ${argv.timeout}`);
    const base = (argv.baseUrl ?? site.defaultBase).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]+/i.test(base)) throw new UsageError(`--base-url must be an http(s) URL, not ${argv.baseUrl}`);
    let sinceMs: number | null = null;
    if (argv.since !== undefined) {
      sinceMs = Date.parse(argv.since);
      if (!Number.isFinite(sinceMs)) throw new UsageError(`--since must be an ISO date or time, not ${argv.since}`);
    }
    const tokenEnv = argv.tokenEnv ?? site.tokenEnv;
    let token: string | null = null;
    if (tokenEnv !== null) {
      token = process.env[tokenEnv] ?? null;
      if (token !== null && token.trim() === '') token = null;
      if (token === null && (site.tokenEnv !== null || argv.tokenEnv !== undefined)) {
        throw new UsageError(`${site.name} needs your login token: set ${tokenEnv} (or name another variable with --token-env)`);
      }
    }
    let cookie: string | null = null;
    if (argv.cookieEnv !== undefined) {
      cookie = process.env[argv.cookieEnv] ?? '';
      if (cookie.trim() === '') throw new UsageError(`--cookie-env ${argv.cookieEnv}: that variable is not set`);
    }
    let ids = null;
    if (argv.ids !== undefined) {
      const read = await readIdsFile(argv.ids);
      if (!read.ok) throw new UsageError(read.message);
      ids = read.rows;
    }
    const controller = new AbortController();
    let signalled: NodeJS.Signals | null = null;
    const stop = (sig: NodeJS.Signals): void => {
      signalled ??= sig;
      controller.abort();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const tty = process.stderr.isTTY && !argv.quiet;
    let result;
    try {
      result = await runFetch({
        site,
        base,
        player: argv.player === undefined ? null : String(argv.player).trim(),
        ids,
        out: argv.out,
        sinceMs,
        limit: argv.limit ?? null,
        concurrency: argv.concurrency,
        rate: argv.rate,
        timeoutMs: Math.round(argv.timeout * 1000),
        token,
        cookie,
        pageSize: argv.pageSize,
        retryUnavailable: argv.retryUnavailable,
        tool: `dice-dialects/${version()} (fetch)`,
        onProgress: tty ? (p) => process.stderr.write(`\r${progressLine(p)}\x1b[K${p.done ? '\n' : ''}`) : undefined,
        signal: controller.signal,
      });
    } finally {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    }
    const p = result.progress;
    const c = result.counts;
    // A run stopped before it did anything says only why.
    const didSomething = p.fetched + p.skipped + p.unavailable + p.failed > 0;
    if (!argv.quiet && c !== null && (result.stopped === null || didSomething)) {
      const secs = p.elapsedMs / 1000;
      process.stderr.write(
        `fetch ${site.name}: ${p.pages} page${p.pages === 1 ? '' : 's'}, fetched ${p.fetched}, skipped ${p.skipped} (already there), unavailable ${p.unavailable}, failed ${p.failed}` +
          `${p.duplicates ? `, ${p.duplicates} listed twice` : ''}; ${p.requests} requests in ${secs.toFixed(1)} s (${(p.requests / Math.max(secs, 0.001)).toFixed(1)}/s)\n` +
          `manifest: listed ${c.listed} = fetched ${c.fetched} + unavailable ${c.unavailable} + failed ${c.failed}\n`,
      );
    }
    if (result.stopped) {
      const why = result.stopped.code === 'fetch.interrupted' ? `interrupted by ${signalled ?? 'a signal'}; the manifest holds every game fetched so far (run again to go on)` : result.stopped.message;
      process.stderr.write(`dice-dialects: ${why}\n`);
      process.exitCode = result.stopped.code === 'fetch.interrupted' ? (signalled === 'SIGTERM' ? 143 : 130) : 2;
      return;
    }
    process.stdout.write(`${argv.out}\n`);
    if (argv.failOn === 'failed' && c !== null && c.failed > 0) process.exitCode = 1;
  },
};
