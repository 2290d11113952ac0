/**
 * The two topologies the load bench compares, each on its own temp data directory:
 *  - sqlite1: one server process on SQLite (the default of `npm start`);
 *  - pg3: three server processes on one PostgreSQL, sharing the data directory (blobs), behind haproxy.
 * Each tells the CPU-seconds used so far by its server processes (killed ones included, as read just
 * before the kill), its balancer and its database, from /proc.
 */
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startPostgresCluster } from '../../../server/cluster/postgres-cluster';
import { startCluster, type Cluster } from '../../../server/cluster/start-cluster';
import { freePort, startServerProcess, type ServerProcess } from '../../support/drive-server';
import { commandLineOf, descendantPids, procCpuSeconds } from './proc-cpu';

export interface CpuSeconds {
  servers: number;
  balancer: number;
  database: number;
}

export interface LoadTopology {
  key: 'sqlite1' | 'pg3';
  label: string;
  /** Where clients connect: the server itself, or the balancer. */
  url: string;
  dataDir: string;
  /** The PostgreSQL database (pg3); undefined on SQLite. */
  dbUrl?: string;
  serverCount: number;
  cpu(): CpuSeconds;
  /** SIGKILLs server process `index` (its CPU so far is kept in cpu().servers). */
  killServer(index: number): Promise<void>;
  /** The servers' and balancer's last log lines (for a failure's report). */
  logTail(): string;
  stop(): Promise<void>;
}

/** What every bench server gets, on both topologies (startServerProcess's settings). */
const BENCH_SERVER_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  DRIVE_TEST_HOOKS: '1',
  LOG_REQUESTS: '0',
  SWEEP_INTERVAL_MS: '0',
  MAX_FILE_SIZE: String(16 * 1024 ** 3),
  DEFAULT_QUOTA: String(64 * 1024 ** 3),
};

/** CPU-seconds of a process and of its children it has waited for (PostgreSQL's ended backends). */
function cpuWithWaitedChildren(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return NaN;
  }
}

/** Server processes whose CPU is summed, with the CPU of the ones already killed. */
class ServerGroup {
  deadCpu = 0;
  constructor(readonly servers: ServerProcess[]) {}
  cpu(): number {
    return this.deadCpu + this.servers.reduce((sum, s) => sum + (s.child.exitCode === null && s.child.signalCode === null ? procCpuSeconds(s.child.pid!) : 0), 0);
  }
  async kill(index: number): Promise<void> {
    const s = this.servers[index]!;
    this.deadCpu += procCpuSeconds(s.child.pid!);
    await s.kill();
  }
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop().catch(() => undefined)));
  }
}

export async function startSqlite1(dir: string): Promise<LoadTopology> {
  const dataDir = path.join(dir, 'sqlite1');
  const server = await startServerProcess({ dataDir, port: await freePort(), env: BENCH_SERVER_ENV });
  const group = new ServerGroup([server]);
  return {
    key: 'sqlite1',
    label: 'SQLite, 1 process',
    url: server.url,
    dataDir,
    serverCount: 1,
    cpu: () => ({ servers: group.cpu(), balancer: 0, database: 0 }),
    killServer: (i) => group.kill(i),
    logTail: () => '',
    stop: () => group.stop(),
  };
}

/**
 * `startCluster` (server/cluster, what `npm run start:cluster` runs, its servers under tsx here) on a PostgreSQL of the bench's own
 * with PostgreSQL's durable defaults (a kept directory: fsync and synchronous commit on, as SQLite's
 * synchronous=FULL is for the other side), so both topologies pay for durable commits. Its pids give
 * the CPU of the servers (restarted ones included), haproxy's and PostgreSQL's.
 */
export async function startPg3(dir: string, processes = 3, options: { restart?: boolean } = {}): Promise<LoadTopology> {
  const dataDir = path.join(dir, 'pg3');
  const pgDir = path.join(dir, 'postgres');
  // PostgreSQL runs as the `postgres` user when we are root: it must reach its directory (the bench's
  // temp directory is made 0700 by mkdtemp; this one and its parent are the bench's own).
  await fsp.mkdir(dir, { recursive: true });
  for (const d of [path.dirname(dir), dir]) await fsp.chmod(d, 0o755);
  const postgres = await startPostgresCluster({ dir: pgDir });
  const logTail: string[] = [];
  let cluster: Cluster | null = null;
  try {
    const dbUrl = await createDatabase(postgres.url('postgres'), 'drive', postgres.url('drive'));
    cluster = await startCluster({
      processes,
      port: 0,
      host: '127.0.0.1',
      dataDir,
      dbUrl,
      restart: options.restart ?? true,
      // The sources under tsx, as sqlite1's server runs (startServerProcess's default), so the two
      // topologies differ by their database and process count only; `npm start`'s bundle and flags are the store bench's.
      serverEntry: ['--import', 'tsx', 'server/main.ts'],
      env: { ...BENCH_SERVER_ENV, STATIC_DIR: path.join(dataDir, 'no-static') },
      log: (name, line) => {
        logTail.push(`[${name}] ${line}`);
        if (logTail.length > 200) logTail.shift();
      },
    });
    const c = cluster;
    const postmasterPid = Number(readFileSync(path.join(pgDir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const haproxyPid = descendantPids(process.pid).find((pid) => commandLineOf(pid).includes(c.haproxyConfigFile));
    if (!haproxyPid) throw new Error('the haproxy process of the cluster was not found');
    // A killed (then restarted) process's CPU, read just before the kill.
    let deadCpu = 0;
    return {
      key: 'pg3',
      label: `PostgreSQL, ${processes} processes, haproxy`,
      url: c.url,
      dataDir,
      dbUrl,
      serverCount: processes,
      cpu: () => ({
        servers: deadCpu + c.pids().reduce<number>((sum, pid) => sum + (pid === null ? 0 : procCpuSeconds(pid) || 0), 0),
        balancer: procCpuSeconds(haproxyPid),
        database: cpuWithWaitedChildren(postmasterPid) + descendantPids(postmasterPid).reduce((sum, pid) => sum + (procCpuSeconds(pid) || 0), 0),
      }),
      async killServer(i) {
        const pid = c.pids()[i];
        if (pid) deadCpu += procCpuSeconds(pid) || 0;
        await c.kill(i);
      },
      logTail: () => logTail.join('\n'),
      async stop() {
        await c.stop();
        await postgres.stop();
      },
    };
  } catch (error) {
    await cluster?.stop().catch(() => undefined);
    await postgres.stop().catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${logTail.slice(-30).join('\n')}`);
  }
}

async function createDatabase(adminUrl: string, name: string, url: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return url;
}
