/**
 * Second upload ("instant upload") with proof of ownership, driven by the engine under Node:
 * content already stored by the tenant is created again under another name and folder with zero
 * chunk bytes sent (counted by a proxy), and a claim that knows only the hash is refused exactly
 * like unknown content.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import type { SecondUploadResponse } from '../../common/transfer/second-upload';
import { createNodeEngine, waitUntilSettled } from '../replay/engine-harness';
import { openFileSource, type CookieFetch } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { fastEngineDeps } from '../support/engine-deps';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { describeFile, startServer, type TestServer } from '../server/helpers';
import { clientHeaders } from '../../common/api/client-env';

const SIZE = 9 * 1024 * 1024 + 5;

let server: TestServer;
let proxy: FaultProxy;
let dir: string;
let jar: CookieFetch;
let sourceSha: string;
let originalStored = false;

/** Uploads original.bin with the engine (plain chunks the first time). */
async function uploadOriginal(): Promise<void> {
  const { engine, close } = createNodeEngine(proxy.url, jar, fastEngineDeps());
  try {
    const [id] = await engine.enqueueUploads([await openFileSource(path.join(dir, 'original.bin'))], { parentId: null, category: 1 });
    const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs: 60_000 });
    expect(s.items.find((i) => i.id === id)!.state).toBe('done');
    originalStored = true;
  } finally {
    await close();
  }
}

async function postJson<T>(pathname: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await jar.fetch(server.baseUrl + pathname, {
    method: 'POST',
    headers: { ...clientHeaders('desktop', 'internal'), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  server = await startServer();
  proxy = await startFaultProxy({ target: server.baseUrl, faultRate: 0 });
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-second-'));
  sourceSha = await writeRandomFile(path.join(dir, 'original.bin'), SIZE);
  await fsp.copyFile(path.join(dir, 'original.bin'), path.join(dir, 'copy.bin'));
  jar = await loggedInJar(server.baseUrl, server.dataDir);
});

afterAll(async () => {
  await proxy?.close();
  // Cut connections the proxy reset mid-body first: the server's close() waits for them otherwise.
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('second upload', () => {
  it('re-creates stored content under another name and folder with zero chunk bytes', async () => {
    await uploadOriginal();
    expect(proxy.counters.chunkBytesForwarded).toBe(SIZE);
    const { engine, close } = createNodeEngine(proxy.url, jar, fastEngineDeps());
    try {

      const folder = await postJson<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'copies' });
      expect(folder.status).toBe(200);
      proxy.resetCounters();
      const [second] = await engine.enqueueUploads([await openFileSource(path.join(dir, 'copy.bin'))], { parentId: folder.body.data.id, category: 1 });
      const s2 = await waitUntilSettled(engine, { ids: [second!], timeoutMs: 60_000 });
      const item = s2.items.find((i) => i.id === second)!;
      expect(item.state, item.lastError ?? '').toBe('done');
      expect(item.via).toBe('instant');
      expect(proxy.counters.chunkRequests).toBe(0);
      expect(proxy.counters.chunkBytesForwarded).toBe(0);
      expect(await downloadSha256(server.baseUrl, jar, item.fileId!)).toEqual({ sha256: sourceSha, size: SIZE });
    } finally {
      await close();
    }
  });

  it('refuses a hash-only claim with the same answer as unknown content', async () => {
    const content = await fsp.readFile(path.join(dir, 'original.bin'));
    const { fingerprint } = describeFile(content);
    if (!originalStored) await uploadOriginal(); // run alone (-t): the first test did not store it
    const claim = async (fp: string, size: number) => {
      const challenge = await postJson<{ data: SecondUploadResponse }>(API.secondUpload, { fingerprint: fp, size, name: `claim-${randomBytes(4).toString('hex')}.bin`, parentId: null, category: 1 });
      expect(challenge.status).toBe(200);
      expect(challenge.body.data.status).toBe('challenge');
      const { challengeId } = challenge.body.data as { challengeId: string };
      return postJson<{ data: SecondUploadResponse }>(API.secondUpload, {
        fingerprint: fp,
        size,
        name: `claim-${randomBytes(4).toString('hex')}.bin`,
        parentId: null,
        category: 1,
        proof: { challengeId, hmac: randomBytes(32).toString('hex') },
      });
    };
    const known = await claim(fingerprint, SIZE);
    const unknown = await claim(randomBytes(32).toString('hex'), SIZE);
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.data).toEqual({ status: 'unknown' });
  });
});
