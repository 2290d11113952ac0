/**
 * A throwaway PostgreSQL cluster for tests and CI (field notes, "Beyond one machine"): `initdb` into a
 * temp directory as the `postgres` user when we run as root (PostgreSQL refuses to run as root), then
 * `pg_ctl start` on a free port, a socket in that directory and 127.0.0.1 only, without fsync. Stopped
 * with `pg_ctl -m immediate stop` and the directory removed.
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
  /** Connections the cluster accepts (every test server's pool takes up to its PG_POOL_SIZE). */
  maxConnections?: number;
}

export async function startPostgresCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (Debian package postgresql); .ci/run installs it');
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-pg-'));
  if (asRoot()) execFileSync('chown', ['postgres:', dir]);
  const data = path.join(dir, 'data');
  const initdb = asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  await run(initdb[0], initdb[1]);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
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
      const stop = asServerUser(ctl, ['-D', data, '-m', 'immediate', 'stop']);
      await run(stop[0], stop[1]).catch(() => undefined);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
