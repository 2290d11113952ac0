/**
 * What the cluster tests share: a cluster of bundled server processes behind haproxy (the same
 * startCluster `npm run start:cluster` runs), a self-signed certificate, requests that say which
 * process answered (X-Served-By), and the store's consistency check after crashes.
 */
import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startCluster, type Cluster, type ClusterOptions } from '../../server/cluster/start-cluster';
import { serverBundle } from '../support/server-bundle';
import { listFilesUnder } from '../support/drive-server';
import { TEST_CHUNK_SIZE } from '../server/helpers';

const run = promisify(execFile);

/** Starts `processes` bundled servers with test hooks behind haproxy; server lines kept in `log` (last 400). */
export async function startTestCluster(
  dataDir: string,
  options: Partial<ClusterOptions> & { processes: number },
): Promise<{ cluster: Cluster; log: string[] }> {
  const log: string[] = [];
  const cluster = await startCluster({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    serverEntry: [await serverBundle()],
    log: (name, line) => {
      log.push(`[${name}] ${line}`);
      if (log.length > 400) log.shift();
    },
    ...options,
    env: {
      NODE_ENV: 'test',
      DRIVE_TEST_HOOKS: '1',
      LOG_REQUESTS: '0',
      SWEEP_INTERVAL_MS: '0',
      CHUNK_SIZE: String(TEST_CHUNK_SIZE),
      STATIC_DIR: path.join(dataDir, 'no-static'),
      ...options.env,
    },
  });
  return { cluster, log };
}

/** A self-signed certificate for 127.0.0.1 (openssl, P-256: fast to make). */
export async function selfSignedCertificate(dir: string): Promise<{ certFile: string; keyFile: string; cert: string }> {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await run('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile,
  ]);
  return { certFile, keyFile, cert: await fsp.readFile(certFile, 'utf8') };
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with node:http(s): from a chosen local address (the client's own, as the server
 * should see it behind the balancer), trusting `ca` for https.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; localAddress?: string; ca?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      target,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, ca: options.ca, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export async function withPg<T>(dbUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The store agrees with the database: every chunked blob row has exactly its chunk files, nothing
 * under blobs/ lacks a row (the tenant logo is one file named by its key).
 */
export async function storeProblems(dataDir: string, dbUrl: string): Promise<string[]> {
  const rows = await withPg(dbUrl, async (c) => ({
    blobs: (await c.query<{ key: string; chunks: number | null }>('select storage_key as key, chunk_count as chunks from blobs')).rows,
    logos: (await c.query<{ key: string }>('select logo_key as key from tenants where logo_key is not null')).rows.map((r) => r.key),
  }));
  const files = await listFilesUnder(path.join(dataDir, 'blobs'));
  const byBlob = new Map<string, string[]>();
  for (const f of files) {
    const owner = path.basename(path.dirname(f));
    byBlob.set(owner, [...(byBlob.get(owner) ?? []), path.basename(f)]);
  }
  const problems: string[] = [];
  for (const blob of rows.blobs) {
    if (blob.chunks === null) continue;
    const expected = Array.from({ length: blob.chunks }, (_, i) => String(i)).sort();
    const got = (byBlob.get(blob.key) ?? []).sort();
    if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`blob ${blob.key}: chunk files ${got.join(',')} (expected 0..${blob.chunks - 1})`);
  }
  const owned = new Set(rows.blobs.map((b) => b.key));
  for (const f of files) if (!owned.has(path.basename(path.dirname(f))) && !rows.logos.includes(path.basename(f)) && !owned.has(path.basename(f))) problems.push(`stray ${f}`);
  return problems;
}
