/**
 * The two topologies the load bench compares, each on its own temp data directory:
 *  - sqlite1: one server process on SQLite (the default of `npm start`);
 *  - pg3: three server processes on one PostgreSQL, sharing the data directory (blobs), behind haproxy.
 * Each tells the CPU-seconds used so far by its server processes (killed ones included, as read just
 * before the kill), its balancer and its database, from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { API } from '../../../common/api/paths';
import { freePort, startServerProcess, type ServerProcess } from '../../support/drive-server';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres';
import { descendantPids, procCpuSeconds } from './proc-cpu';

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
  stop(): Promise<void>;
}

/** What every bench server gets (as tests/support/drive-server.ts sets, plus quotas for many users). */
const SERVER_ENV: Record<string, string> = {
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
  const server = await startServerProcess({ dataDir, port: await freePort(), env: SERVER_ENV });
  const group = new ServerGroup([server]);
  return {
    key: 'sqlite1',
    label: 'SQLite, 1 process',
    url: server.url,
    dataDir,
    serverCount: 1,
    cpu: () => ({ servers: group.cpu(), balancer: 0, database: 0 }),
    killServer: (i) => group.kill(i),
    stop: () => group.stop(),
  };
}

/** haproxy in front of `ports`: round robin, health checks on the system config route every 500 ms. */
function haproxyConfig(port: number, ports: number[]): string {
  return [
    'global',
    // haproxy needs about two descriptors per connection and refuses to start above the process's limit.
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-keep-alive 60s',
    '  retries 3',
    '  option redispatch',
    'frontend drive',
    `  bind 127.0.0.1:${port}`,
    '  default_backend servers',
    'backend servers',
    '  balance roundrobin',
    `  option httpchk GET ${API.systemConfig}`,
    ...ports.map((p, i) => `  server s${i + 1} 127.0.0.1:${p} check inter 500ms fall 2 rise 2`),
    '',
  ].join('\n');
}

async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const res = await fetch(url + API.systemConfig, { signal: AbortSignal.timeout(1_000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Stand-in for `startCluster(...)` (issue 36's `npm run start:cluster`, built alongside): a throwaway
 * PostgreSQL, `processes` servers on it sharing one data directory (the first migrates before the
 * others start), and haproxy in front.
 */
export async function startPg3(dir: string, processes = 3): Promise<LoadTopology> {
  const dataDir = path.join(dir, 'pg3');
  let postgres: PostgresCluster | null = null;
  let balancer: ChildProcess | null = null;
  const group = new ServerGroup([]);
  const stop = async (): Promise<void> => {
    if (balancer && balancer.exitCode === null) {
      balancer.kill('SIGTERM');
      await once(balancer, 'exit');
    }
    await group.stop();
    await postgres?.stop();
  };
  try {
    postgres = await startPostgresCluster();
    const admin = new pg.Client({ connectionString: postgres.url('postgres') });
    await admin.connect();
    await admin.query('create database drive');
    await admin.end();
    const dbUrl = postgres.url('drive');
    const env = { ...SERVER_ENV, DB_URL: dbUrl };
    group.servers.push(await startServerProcess({ dataDir, port: await freePort(), env }));
    for (let i = 1; i < processes; i++) group.servers.push(await startServerProcess({ dataDir, port: await freePort(), env }));
    const port = await freePort();
    const config = path.join(dir, 'haproxy.cfg');
    await fsp.writeFile(config, haproxyConfig(port, group.servers.map((s) => s.port)));
    balancer = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let balancerLog = '';
    balancer.stderr?.on('data', (d: Buffer) => (balancerLog = (balancerLog + d.toString()).slice(-4000)));
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(url, balancer, 15_000).catch((error: Error) => {
      throw new Error(`haproxy: ${error.message}\n${balancerLog}`);
    });
    const postmasterPid = Number(readFileSync(path.join(postgres.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const haproxyPid = balancer.pid!;
    return {
      key: 'pg3',
      label: `PostgreSQL, ${processes} processes, haproxy`,
      url,
      dataDir,
      dbUrl,
      serverCount: processes,
      cpu: () => ({
        servers: group.cpu(),
        balancer: procCpuSeconds(haproxyPid),
        database: cpuWithWaitedChildren(postmasterPid) + descendantPids(postmasterPid).reduce((sum, pid) => sum + (procCpuSeconds(pid) || 0), 0),
      }),
      killServer: (i) => group.kill(i),
      stop,
    };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
