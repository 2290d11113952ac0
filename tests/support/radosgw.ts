/**
 * A real S3 server for tests, benchmarks and local runs: Ceph's radosgw (Debian's packages ceph-mon,
 * ceph-osd, radosgw) as a one-node cluster in a temp directory, without systemd or containers
 * (field notes, "Beyond one machine"; docs/object-store.md). One ceph-mon from a generated monmap and
 * cephx keyrings, one ceph-osd (memstore: data in RAM; or bluestore on a sparse file for big tests),
 * pools of size 1, no ceph-mgr, radosgw's beast frontend on 127.0.0.1, and an S3 user made with
 * radosgw-admin. Every daemon runs in the foreground of its own process group and is stopped by PID.
 *
 * The gateway can be paused (SIGSTOP: connections hang, as with a stuck server) or killed and
 * started again on the same port (connections refused, as with a crashed one); the objects live in
 * the OSD, so they survive the gateway's restart.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './free-port';
import { cephConf, type OsdBackend } from './radosgw-conf';

const run = promisify(execFile);

export const RADOSGW_PACKAGES = ['ceph-mon', 'ceph-osd', 'radosgw'] as const;
const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph-authtool', 'ceph'];
/** radosgw signs with any region name; the SDK needs one. */
export const RADOSGW_REGION = 'us-east-1';

export interface RadosgwOptions {
  /** Where the cluster lives (created; removed by stop()). Default: a new temp directory. */
  dir?: string;
  /** memstore (default; data in RAM, fastest start) or bluestore on a sparse file (big tests). */
  backend?: OsdBackend;
  /** memstore: its reported capacity; bluestore: its block file's size. Default 4 GiB / 16 GiB. */
  storeBytes?: number;
  /** radosgw's port (default: a free one). */
  port?: number;
  /** Gives up when the first signed S3 request has not succeeded by then. Default 60 s. */
  timeoutMs?: number;
}

/** What the CLI writes to `<dir>/state.json` so another process can stop the cluster. */
export interface RadosgwState {
  dir: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  backend: OsdBackend;
  pids: { mon: number; osd: number; rgw: number };
}

export interface Radosgw extends RadosgwState {
  port: number;
  /** A client with Ceph 16's settings (docs/object-store.md, "Ceph 16's quirks"). */
  client(): S3Client;
  createBucket(bucket: string): Promise<void>;
  /** BLOB_STORE plus the AWS credential variables for a server storing in `bucket`. */
  env(bucket: string): Record<string, string>;
  /** SIGSTOP the gateway: requests hang until resume(). */
  pause(): void;
  resume(): void;
  /** SIGKILL the gateway and wait until it is gone. */
  killGateway(): Promise<void>;
  /** Starts the gateway again (same port, same objects) and waits until it answers signed requests. */
  startGateway(): Promise<void>;
  /** SIGKILLs all three daemons, waits until they are gone, removes the directory. */
  stop(): Promise<void>;
}

/** The binaries missing from PATH (empty when the Debian packages are installed). */
export function missingRadosgwBinaries(): string[] {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/usr/sbin']);
  return BINARIES.filter((b) => !dirs.some((d) => d && existsSync(path.join(d, b))));
}

export const RADOSGW_MISSING_MESSAGE = `radosgw is not installed: apt-get install --no-install-recommends ${RADOSGW_PACKAGES.join(' ')} (.ci/run installs them)`;

/** BLOB_STORE=s3://bucket?endpoint=…&region=… (docs/object-store.md). */
export function blobStoreUrl(bucket: string, endpoint: string, region: string): string {
  return `s3://${bucket}?${new URLSearchParams({ endpoint, region }).toString()}`;
}

export function s3ClientFor(s: Pick<RadosgwState, 'endpoint' | 'region' | 'accessKeyId' | 'secretAccessKey'>): S3Client {
  // The SDK is pinned to a release that supports Node 20 (package.json); its notice that later ones
  // will not is known, and it would print in every test file.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    endpoint: s.endpoint,
    region: s.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    // Ceph 16 answers a streamed PutObject with the SDK's default trailing checksum with 411.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Alive and not a zombie (a daemon we spawned detached is reaped by init once our process is gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export async function waitGone(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still running ${timeoutMs} ms after it was killed`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Stops the daemons of a state (ours or another process's), gateway first, and removes the directory. */
export async function stopRadosgw(state: Pick<RadosgwState, 'dir' | 'pids'>): Promise<void> {
  const { rgw, osd, mon } = state.pids;
  // Throwaway data: SIGKILL. (A SIGTERMed radosgw whose cluster is gone waits up to 120 s.)
  for (const pid of [rgw, osd, mon]) if (pid > 0) killQuietly(pid, 'SIGKILL');
  for (const pid of [rgw, osd, mon]) if (pid > 0) await waitGone(pid);
  await fsp.rm(state.dir, { recursive: true, force: true });
}

/** A daemon in the foreground (`-f`), its own process group, output to its log; not tied to our lifetime. */
function daemon(dir: string, name: string, bin: string, args: string[]): number {
  const out = openSync(path.join(dir, 'log', `${name}.out`), 'a');
  try {
    const child = spawn(bin, ['-c', path.join(dir, 'ceph.conf'), ...args, '-f'], { cwd: dir, detached: true, stdio: ['ignore', out, out] });
    child.unref();
    if (child.pid === undefined) throw new Error(`${bin} did not start`);
    return child.pid;
  } finally {
    closeSync(out);
  }
}

async function tail(file: string): Promise<string> {
  try {
    return (await fsp.readFile(file, 'utf8')).split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

async function untilSignedRequestWorks(s3: S3Client, pid: number, dir: string, deadline: number): Promise<void> {
  let last: unknown;
  while (Date.now() < deadline) {
    if (!processAlive(pid)) throw new Error(`radosgw exited while starting:\n${await tail(path.join(dir, 'log', 'rgw.out'))}\n${await tail(path.join(dir, 'log', 'client.rgw.log'))}`);
    try {
      await s3.send(new ListBucketsCommand({}), { abortSignal: AbortSignal.timeout(2_000) });
      return;
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`radosgw did not answer a signed request in time (last: ${String(last)}):\n${await tail(path.join(dir, 'log', 'client.rgw.log'))}`);
}

/**
 * Starts the cluster and waits until the S3 user's signed ListBuckets succeeds. On failure, stops
 * what it started and throws with the daemons' last log lines.
 */
export async function startRadosgw(options: RadosgwOptions = {}): Promise<Radosgw> {
  const missing = missingRadosgwBinaries();
  if (missing.length) throw new Error(`${RADOSGW_MISSING_MESSAGE} (missing: ${missing.join(', ')})`);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const dir = options.dir ? path.resolve(options.dir) : await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-radosgw-'));
  const backend = options.backend ?? 'memstore';
  for (const sub of ['run', 'log', 'mon', 'osd/ceph-0', 'rgw']) await fsp.mkdir(path.join(dir, sub), { recursive: true });
  const [monPort, port] = [await freePort(), options.port ?? (await freePort())];
  const conf = path.join(dir, 'ceph.conf');
  const fsid = randomUUID();
  await fsp.writeFile(
    conf,
    cephConf({ dir, fsid, monPort, rgwPort: port, backend, storeBytes: options.storeBytes ?? (backend === 'memstore' ? 4 : 16) * 1024 ** 3 }),
  );
  const pids = { mon: 0, osd: 0, rgw: 0 };
  const ceph = (bin: string, args: string[]) => run(bin, ['-c', conf, ...args], { cwd: dir, timeout: Math.max(1_000, deadline - Date.now()) });
  try {
    // Keys: the mon's keyring holds every entity's key and caps, so no `ceph auth` call is needed later.
    const keyring = (name: string) => path.join(dir, `keyring.${name}`);
    const entities: Array<[string, string[]]> = [
      ['mon.', ['--cap', 'mon', 'allow *']],
      ['client.admin', ['--cap', 'mon', 'allow *', '--cap', 'osd', 'allow *', '--cap', 'mgr', 'allow *']],
      ['osd.0', ['--cap', 'mon', 'allow profile osd', '--cap', 'osd', 'allow *']],
      ['client.rgw', ['--cap', 'mon', 'allow rw', '--cap', 'osd', 'allow rwx']],
    ];
    for (const [name, caps] of entities) {
      await run('ceph-authtool', ['--create-keyring', keyring(name === 'mon.' ? 'mon.a' : name), '--gen-key', '-n', name, ...caps]);
    }
    for (const [name] of entities.slice(1)) await run('ceph-authtool', [keyring('mon.a'), '--import-keyring', keyring(name)]);
    await run('monmaptool', ['--create', '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, '--fsid', fsid, path.join(dir, 'monmap')]);
    await ceph('ceph-mon', ['--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap'), '--keyring', keyring('mon.a')]);
    pids.mon = daemon(dir, 'mon', 'ceph-mon', ['-i', 'a']);

    const osdUuid = randomUUID();
    await ceph('ceph', ['--connect-timeout', '30', 'osd', 'new', osdUuid, '0']);
    await ceph('ceph-osd', ['-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
    pids.osd = daemon(dir, 'osd', 'ceph-osd', ['-i', '0']);
    pids.rgw = daemon(dir, 'rgw', 'radosgw', ['-n', 'client.rgw']);

    const accessKeyId = `DRIVE${randomBytes(8).toString('hex').toUpperCase()}`;
    const secretAccessKey = randomBytes(20).toString('hex');
    // radosgw-admin talks to RADOS itself; it waits for the OSD like the gateway does.
    await ceph('radosgw-admin', ['-n', 'client.admin', 'user', 'create', '--uid=drive', '--display-name=drive', `--access-key=${accessKeyId}`, `--secret-key=${secretAccessKey}`]);
    const endpoint = `http://127.0.0.1:${port}`;
    const state: RadosgwState = { dir, endpoint, region: RADOSGW_REGION, accessKeyId, secretAccessKey, backend, pids };
    const s3 = s3ClientFor(state);
    await untilSignedRequestWorks(s3, pids.rgw, dir, deadline);
    await fsp.writeFile(path.join(dir, 'state.json'), JSON.stringify(state, null, 2));

    return Object.assign(state, {
      port,
      client: () => s3ClientFor(state),
      async createBucket(bucket: string) {
        await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      },
      env: (bucket: string) => ({
        BLOB_STORE: blobStoreUrl(bucket, endpoint, state.region),
        AWS_ACCESS_KEY_ID: accessKeyId,
        AWS_SECRET_ACCESS_KEY: secretAccessKey,
      }),
      pause: () => process.kill(pids.rgw, 'SIGSTOP'),
      resume: () => process.kill(pids.rgw, 'SIGCONT'),
      async killGateway() {
        killQuietly(pids.rgw, 'SIGCONT');
        killQuietly(pids.rgw, 'SIGKILL');
        await waitGone(pids.rgw);
      },
      async startGateway() {
        if (processAlive(pids.rgw)) throw new Error('radosgw is still running');
        pids.rgw = daemon(dir, 'rgw', 'radosgw', ['-n', 'client.rgw']);
        await fsp.writeFile(path.join(dir, 'state.json'), JSON.stringify(state, null, 2));
        await untilSignedRequestWorks(s3, pids.rgw, dir, Date.now() + (options.timeoutMs ?? 60_000));
      },
      stop: () => stopRadosgw(state),
    });
  } catch (error) {
    const logs = await Promise.all(['mon.a', 'osd.0', 'client.rgw'].map(async (n) => `--- ${n}\n${await tail(path.join(dir, 'log', `${n}.log`))}`));
    await stopRadosgw({ dir, pids }).catch(() => undefined);
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`radosgw cluster did not start: ${detail}\n${logs.join('\n')}`);
  }
}
