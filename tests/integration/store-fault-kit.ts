/**
 * What the object-store fault tests share (store-faults.test.ts): a server child on a bucket of a real
 * radosgw, on a fixed port so it can be SIGKILLed and started again behind the same URL, its log lines
 * kept (the recovery report); the bucket's contents seen directly through S3; and what the server's
 * database references.
 */
import path from 'node:path';
import { ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { API } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import type { CookieFetch } from '../replay/node-runtime';
import { withServerDb } from '../support/drive-server';
import { keepAcrossTests, spawnServer, type Running } from '../server/child-server';

export const CHUNK_SIZE = 256 * 1024;

export interface StoreServer {
  baseUrl: string;
  run: Running;
  /** SIGKILL, wait until gone. */
  kill(): Promise<void>;
  /** SIGTERM, wait until gone. */
  stop(): Promise<void>;
}

export async function startStoreServer(options: { dataDir: string; port: number; env: Record<string, string> }): Promise<StoreServer> {
  const child = await spawnServer(
    {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      STATIC_DIR: path.join(options.dataDir, 'no-dist'),
      CHUNK_SIZE: String(CHUNK_SIZE),
      DRIVE_TEST_HOOKS: '1',
      LOG_REQUESTS: '0',
      SWEEP_INTERVAL_MS: '0',
      ...options.env,
    },
    'pipe',
  );
  const log: string[] = [];
  child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const run: Running = { child, exited, baseUrl, log };
  keepAcrossTests(run);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during startup:\n${log.join('')}`);
    try {
      if ((await fetch(baseUrl + API.systemConfig)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const gone = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { baseUrl, run, kill: () => gone('SIGKILL'), stop: () => gone('SIGTERM') };
}

interface LogLine {
  level: number;
  msg: string;
  report?: Record<string, unknown>;
}

export function logLines(run: Running): LogLine[] {
  return run.log
    .join('')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as LogLine;
      } catch {
        return { level: 60, msg: l };
      }
    });
}

export const recoveryReportOf = (run: Running): Record<string, unknown> | undefined => logLines(run).find((l) => l.msg === 'startup recovery done')?.report;

/** One sweeper pass in the server child (test hook), answering what it removed; `at`: as if at that time. */
export async function sweepOnce(baseUrl: string, jar: CookieFetch, at?: number): Promise<Record<string, unknown>> {
  const res = await jar.fetch(baseUrl + API.testSweep + (at === undefined ? '' : `?at=${at}`), { method: 'POST', headers: clientHeaders('desktop', 'internal') });
  if (!res.ok) throw new Error(`sweep: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

/** Every key in the bucket. */
export async function listKeys(s3: S3Client, bucket: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys.sort();
}

export async function openMultipartUploads(s3: S3Client, bucket: string): Promise<Array<{ key: string; uploadId: string }>> {
  const r = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return (r.Uploads ?? []).map((u) => ({ key: u.Key!, uploadId: u.UploadId! }));
}

/**
 * The bucket's keys that what the server's database records does not account for: chunk objects
 * (`uploads/<id>/<index>`) of no recorded chunk of a live upload, and objects of chunked blobs
 * (`blobs/<key>/<index>`) of no blob row with that many chunks. (One-piece objects `blobs/<key>` are
 * left out: tenant logos and avatars have no blob row.) After recovery and a sweeper pass: none.
 */
export async function unaccountedKeys(keys: readonly string[], dataDir: string): Promise<string[]> {
  const known = await withServerDb(dataDir, (db) => {
    const set = new Set<string>();
    const blobs = db.prepare('select storage_key, chunk_count from blobs where chunk_size is not null').all() as Array<{ storage_key: string; chunk_count: number }>;
    for (const b of blobs) for (let i = 0; i < b.chunk_count; i++) set.add(`blobs/${b.storage_key}/${i}`);
    const chunks = db.prepare('select upload_id, idx from upload_chunks').all() as Array<{ upload_id: string; idx: number }>;
    for (const c of chunks) set.add(`uploads/${c.upload_id}/${c.idx}`);
    return set;
  });
  return keys.filter((k) => (k.startsWith('uploads/') || /^blobs\/[^/]+\/[0-9]+$/.test(k)) && !known.has(k));
}
