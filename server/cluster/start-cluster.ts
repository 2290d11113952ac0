import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { trustedProxiesFromEnv } from '../config';
import { freePort } from './free-port';
import { serversInRotation } from './balancer-socket';
import { BACKEND, haproxyConfig, HEALTH_PATH } from './haproxy-config';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';
import { ServerSlot } from './server-slot';
import { startScriptNodeArgs } from './start-script';

/**
 * N server processes on one PostgreSQL behind Debian's haproxy (docs/cluster.md): what
 * `npm run start:cluster` runs, and what the cluster tests and the load bench start.
 */
export interface ClusterOptions {
  processes: number;
  /** Where the balancer listens; 0 = a free port. */
  port: number;
  /** The balancer's bind address (HOST, default 0.0.0.0); the servers listen on 127.0.0.1 only. */
  host?: string;
  /** DATA_DIR of every process: stored files, partial uploads and keys, shared by all. */
  dataDir: string;
  /** A PostgreSQL database (DB_URL); unset = a cluster of our own (see pgDir). */
  dbUrl?: string;
  /** Our own PostgreSQL keeps its data here and is kept; unset = a throwaway one, removed at stop. */
  pgDir?: string;
  /** The balancer terminates TLS with this certificate (PEM files). */
  tls?: { certFile: string; keyFile: string };
  /** Added to every server's environment (this process's environment is inherited). */
  env?: Record<string, string>;
  /**
   * How a server is run: node's arguments, from the repository's root. Default: as `npm start` runs it (its
   * node flags and the prebuilt dist-server/main.cjs, which `npm run start:cluster` builds first).
   */
  serverEntry?: readonly string[];
  /** Added to process i's environment at its n-th start (1 = the first): tests arm a crash point with it. */
  processEnv?: (index: number, start: number) => Record<string, string>;
  /** Restart a server process that dies (default true). */
  restart?: boolean;
  /** X-Served-By: <process name> on every answer (default: on with DRIVE_TEST_HOOKS=1). */
  servedByHeader?: boolean;
  /** Where the servers' and the balancer's log lines go (default: stdout, prefixed with the name). */
  log?: (name: string, line: string) => void;
  /** Aborts a start in progress. */
  signal?: AbortSignal;
}

export interface Cluster {
  /** The balancer: http(s)://127.0.0.1:PORT when bound to all addresses. */
  url: string;
  port: number;
  dbUrl: string;
  /** Process names (s1…sN), as in X-Served-By and haproxy's config. */
  names: readonly string[];
  /** Each process's own address (127.0.0.1, bypassing the balancer): diagnostics and tests. */
  processUrls: readonly string[];
  /** The running server processes' ids (null while one is down). */
  pids(): (number | null)[];
  /** How many times process i was started (1 = never restarted). */
  starts(i: number): number;
  /** SIGKILL server process i (0-based); it is restarted unless `restart` was false. */
  kill(i: number): Promise<void>;
  /** Waits until process i answers its health check again (after a kill) and the balancer routes to it. */
  waitHealthy(i: number, timeoutMs?: number): Promise<void>;
  /** The haproxy configuration in use (docs/cluster.md explains it). */
  haproxyConfigFile: string;
  /** haproxy's admin socket (`show servers state`, `disable server servers/s1`…). */
  adminSocket: string;
  /** Stops the balancer, then the servers (SIGTERM, clean close), then our own PostgreSQL. */
  stop(): Promise<void>;
}

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** haproxy connects to the servers from the loopback address: the one proxy they believe. */
const BALANCER_ADDRESS = '127.0.0.1';

const stdoutLog = (name: string, line: string): void => void process.stdout.write(`[${name}] ${line}\n`);

/** The `drive` database on our own cluster, created when missing. */
async function ensureDatabase(cluster: PostgresCluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!found.rowCount) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url(name);
}

async function waitListening(port: number, child: ChildProcess, signal: AbortSignal): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    if (child.exitCode !== null) throw new Error(`haproxy exited with code ${child.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  if (!Number.isInteger(options.processes) || options.processes < 1) throw new Error(`processes must be a positive integer, got ${options.processes}`);
  const log = options.log ?? stdoutLog;
  const signal = options.signal ?? new AbortController().signal;
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async (): Promise<void> => {
    for (const step of cleanups.splice(0).reverse()) await step().catch((err: unknown) => log('cluster', `clean-up failed: ${String(err)}`));
  };
  try {
    const runtime = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-cluster-'));
    cleanups.push(() => fsp.rm(runtime, { recursive: true, force: true }));

    let dbUrl = options.dbUrl;
    if (!dbUrl) {
      const cluster = await startPostgresCluster({ dir: options.pgDir });
      cleanups.push(() => cluster.stop());
      dbUrl = await ensureDatabase(cluster, 'drive');
    }

    const testHooks = (options.env?.DRIVE_TEST_HOOKS ?? process.env.DRIVE_TEST_HOOKS) === '1';
    const trusted = [BALANCER_ADDRESS, ...trustedProxiesFromEnv(options.env?.TRUST_PROXY ?? process.env.TRUST_PROXY)];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...options.env,
      HOST: '127.0.0.1',
      DATA_DIR: path.resolve(options.dataDir),
      DB_URL: dbUrl,
      TRUST_PROXY: [...new Set(trusted)].join(','),
    };
    const entry = options.serverEntry ?? startScriptNodeArgs(ROOT);
    const ports = await Promise.all(Array.from({ length: options.processes }, () => freePort()));
    const slots = ports.map(
      (port, i) =>
        new ServerSlot({
          name: `s${i + 1}`,
          port,
          entry,
          cwd: ROOT,
          env,
          envOfStart: options.processEnv && ((start) => options.processEnv!(i, start)),
          restart: options.restart ?? true,
          log,
        }),
    );
    const killAll = (): void => slots.forEach((s) => s.killNow());
    process.once('exit', killAll);
    cleanups.push(async () => {
      process.off('exit', killAll);
      await Promise.all(slots.map((s) => s.stop()));
    });
    // The first process migrates and seeds an empty database alone; the others then start side by side.
    slots[0]!.start();
    await slots[0]!.waitHealthy(HEALTH_PATH, signal);
    for (const slot of slots.slice(1)) slot.start();
    await Promise.all(slots.slice(1).map((s) => s.waitHealthy(HEALTH_PATH, signal)));

    const port = options.port || (await freePort());
    const host = options.host ?? '0.0.0.0';
    let tlsPem: string | undefined;
    if (options.tls) {
      // haproxy reads the chain and its key from one file.
      tlsPem = path.join(runtime, 'balancer.pem');
      const [cert, key] = await Promise.all([fsp.readFile(options.tls.certFile, 'utf8'), fsp.readFile(options.tls.keyFile, 'utf8')]);
      await fsp.writeFile(tlsPem, `${cert.trimEnd()}\n${key.trimEnd()}\n`, { mode: 0o600 });
    }
    const adminSocket = path.join(runtime, 'haproxy.sock');
    const configFile = path.join(runtime, 'haproxy.cfg');
    await fsp.writeFile(
      configFile,
      haproxyConfig({ bind: { host, port }, servers: slots.map((s) => ({ name: s.name, port: s.port })), tlsPem, adminSocket, servedByHeader: options.servedByHeader ?? testHooks }),
    );
    await run('haproxy', ['-c', '-q', '-f', configFile]).catch((err: { stderr?: string }) => {
      throw new Error(`haproxy refused its configuration (${configFile}):\n${err.stderr ?? String(err)}`);
    });
    const balancer = spawn('haproxy', ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    for (const stream of [balancer.stdout!, balancer.stderr!]) readline.createInterface({ input: stream }).on('line', (line) => log('haproxy', line));
    const killBalancer = (): void => void (balancer.exitCode === null && balancer.kill('SIGKILL'));
    process.once('exit', killBalancer);
    cleanups.push(async () => {
      process.off('exit', killBalancer);
      if (balancer.exitCode !== null || balancer.signalCode !== null) return;
      const exited = once(balancer, 'exit');
      balancer.kill('SIGTERM');
      await exited;
    });
    await waitListening(port, balancer, signal);

    const url = `${options.tls ? 'https' : 'http'}://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
    let stopped: Promise<void> | null = null;
    return {
      url,
      port,
      dbUrl,
      names: slots.map((s) => s.name),
      processUrls: slots.map((s) => s.url),
      pids: () => slots.map((s) => s.pid),
      starts: (i) => slots[i]!.starts,
      kill: (i) => slots[i]!.kill(),
      async waitHealthy(i, timeoutMs = 60_000) {
        const signal = AbortSignal.timeout(timeoutMs);
        await slots[i]!.waitHealthy(HEALTH_PATH, signal);
        while (!(await serversInRotation(adminSocket, BACKEND, signal)).get(slots[i]!.name)) await new Promise((r) => setTimeout(r, 100));
      },
      haproxyConfigFile: configFile,
      adminSocket,
      stop: () => (stopped ??= cleanUp()),
    };
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
