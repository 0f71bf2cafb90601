import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** The variable that gives the tests a PostgreSQL server (a URL); .ci/run and the global setup set it. */
export const PG_URL_VAR = 'DICE_DIALECTS_TEST_PG';

/** Debian's PostgreSQL binaries, newest first, or null. */
export function postgresBin(): string | null {
  for (const v of ['17', '16', '15', '14', '13']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway cluster: initdb and pg_ctl in a fresh temporary folder, listening on a random
 * 127.0.0.1 port (and a Unix socket in that folder), trust authentication for the local user.
 * PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user.
 */
export async function startThrowawayPostgres(): Promise<{ url: string; stop: () => void } | null> {
  const bin = postgresBin();
  if (bin === null) return null;
  const root = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'dice-dialects-pg-'));
  const run = (cmd: string, args: string[]) => {
    const full = join(bin, cmd);
    const r = root ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed (exit ${r.status}): ${(r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' ')}`);
  };
  if (root) {
    const pg = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const pgGid = execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim();
    chownSync(dir, Number(pg), Number(pgGid));
  }
  const data = join(dir, 'data');
  const user = root ? 'postgres' : userInfo().username;
  try {
    run('initdb', ['-D', data, '-U', user, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    const port = await freePort();
    run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=40`, 'start']);
    return {
      url: `postgres://${user}@127.0.0.1:${port}/postgres`,
      stop: () => {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
