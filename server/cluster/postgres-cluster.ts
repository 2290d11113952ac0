/**
 * A PostgreSQL cluster of our own, from Debian's server binaries (field notes, "Beyond one machine"):
 * `initdb` as the `postgres` user when we run as root (PostgreSQL refuses to run as root), then
 * `pg_ctl start` on a free port, a socket in its directory and 127.0.0.1 only.
 *
 * Throwaway (tests, CI, `start:cluster` by default): a temp directory, fsync off, stopped with
 * `pg_ctl -m immediate stop` and removed. Kept (`dir` given): initdb only the first time, durable
 * settings, stopped with `-m fast` (a clean shutdown), the directory left for the next start.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, promises as fsp, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:PORT/<database> */
  url(database: string): string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** The newest PostgreSQL server binaries Debian installed (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], 'bin') : null;
}

const asRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary, as the `postgres` user when we are root. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

export interface ClusterOptions {
  /** Connections the cluster accepts (every server process's pool takes up to its PG_POOL_SIZE). */
  maxConnections?: number;
  /** Keep the cluster in this directory (created, initialised once, never removed); unset: a throwaway one. */
  dir?: string;
}

/** A directory of our own for the cluster, which the `postgres` user can use when we are root. */
async function prepareDir(kept: string | undefined): Promise<string> {
  const dir = kept ? path.resolve(kept) : await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-pg-'));
  // The parents with the usual mode (the `postgres` user must pass through them), the cluster's own closed.
  await fsp.mkdir(path.dirname(dir), { recursive: true });
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  if (asRoot()) {
    execFileSync('chown', ['postgres:', dir]);
    try {
      execFileSync('runuser', ['-u', 'postgres', '--', 'test', '-w', dir]);
    } catch {
      throw new Error(
        `PostgreSQL runs as the 'postgres' user, who cannot reach ${dir} (a parent directory is closed to it): open the parents to it (chmod o+x), use --throwaway-db, or give DB_URL`,
      );
    }
  }
  return dir;
}

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql); .ci/run installs it');
  const kept = options.dir !== undefined;
  const dir = await prepareDir(options.dir);
  const data = path.join(dir, 'data');
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    const initdb = asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    await run(initdb[0], initdb[1]);
  }
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    // A throwaway cluster trades durability for speed; a kept one keeps PostgreSQL's defaults.
    ...(kept ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    `-c max_connections=${options.maxConnections ?? 400}`,
  ].join(' ');
  const ctl = path.join(bin, 'pg_ctl');
  const start = asServerUser(ctl, ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', settings, 'start']);
  await run(start[0], start[1]);
  return {
    port,
    dir,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      const stop = asServerUser(ctl, ['-D', data, '-m', kept ? 'fast' : 'immediate', 'stop']);
      await run(stop[0], stop[1]).catch(() => undefined);
      if (!kept) await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
