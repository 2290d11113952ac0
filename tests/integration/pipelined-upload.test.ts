/**
 * Pipelined uploads (files of PIPELINE_MIN_BYTES and more: hashing runs while chunks go, in a
 * streaming session) with the real engine under Node against the real server: the bytes arrive
 * exactly once and byte-exact, a second upload of the same bytes is still instant with zero chunk
 * bytes (the probe finds it before any chunk is sent), and a faulty network changes nothing, not even
 * one that keeps a chunk request open towards the server after the client gave up on it.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIPELINE_MIN_BYTES } from '../../common/transfer/constants';
import { uploadOnce } from '../replay/engine-harness';
import type { CookieFetch } from '../replay/node-runtime';
import { downloadSha256, loggedInJar, writeRandomFile } from '../support/drive-server';
import { fastEngineDeps } from '../support/engine-deps';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startServer, type TestServer } from '../server/helpers';

const SIZE = PIPELINE_MIN_BYTES + 3 * 1024 * 1024 + 17;
let server: TestServer;
let clean: FaultProxy;
let faulty: FaultProxy;
let holding: FaultProxy;
let dir: string;
let jar: CookieFetch;

beforeAll(async () => {
  server = await startServer();
  clean = await startFaultProxy({ target: server.baseUrl, faultRate: 0 });
  faulty = await startFaultProxy({ target: server.baseUrl, faultRate: 0.3, seed: 7, stallMs: 4_000 });
  holding = await startFaultProxy({ target: server.baseUrl, faultFirst: 1, kinds: ['hold'] });
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'drive-pipelined-'));
  jar = await loggedInJar(server.baseUrl, server.dataDir);
});

afterAll(async () => {
  await clean?.close();
  await faulty?.close();
  await holding?.close();
  server?.app.server.closeAllConnections();
  await server?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

/** Uploads `file` through `proxyUrl` with the engine; returns the settled item and its queue record. */
function upload(proxyUrl: string, file: string, name: string, timeoutMs?: number) {
  return uploadOnce(proxyUrl, jar, file, name, fastEngineDeps(), timeoutMs);
}

describe('pipelined upload', () => {
  it('hashes while uploading, sends every byte once, and a second upload of it sends none', async () => {
    const file = path.join(dir, 'large.bin');
    const sha256 = await writeRandomFile(file, SIZE);

    const first = await upload(clean.url, file, 'large.bin');
    expect(first.item.state, first.item.lastError ?? '').toBe('done');
    expect(first.item.via).toBe('chunks');
    expect(first.record?.streamingSession).toBe(true);
    expect(first.record?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(clean.counters.chunkBytesForwarded).toBe(SIZE);
    expect(await downloadSha256(server.baseUrl, jar, first.item.fileId!)).toEqual({ sha256, size: SIZE });

    clean.resetCounters();
    const second = await upload(clean.url, file, 'large-again.bin');
    expect(second.item.state, second.item.lastError ?? '').toBe('done');
    expect(second.item.via).toBe('instant');
    expect(clean.counters.chunkRequests).toBe(0);
    expect(clean.counters.chunkBytesForwarded).toBe(0);
    expect(await downloadSha256(server.baseUrl, jar, second.item.fileId!)).toEqual({ sha256, size: SIZE });
  });

  it('ends byte-exact while ~30 % of chunk requests are dropped, reset, stalled or corrupted', async () => {
    const file = path.join(dir, 'large-faulty.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    const { item, record } = await upload(faulty.url, file, 'large-faulty.bin');
    expect(item.state, item.lastError ?? '').toBe('done');
    expect(record?.streamingSession).toBe(true);
    expect(Object.values(faulty.counters.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(await downloadSha256(server.baseUrl, jar, item.fileId!)).toEqual({ sha256, size: SIZE });
  });

  it('a chunk request the network keeps open after half its body does not hold back the retry of its chunk', async () => {
    const file = path.join(dir, 'large-held.bin');
    const sha256 = await writeRandomFile(file, SIZE);
    // Before the server cut such a request once another waited for its chunk, every retry of the
    // chunk queued behind it: the item never settled, one chunk short, "上传长时间没有进展".
    const { item } = await upload(holding.url, file, 'large-held.bin', 60_000);
    expect(item.state, item.lastError ?? '').toBe('done');
    expect(holding.counters.faults.hold).toBe(1);
    expect(await downloadSha256(server.baseUrl, jar, item.fileId!)).toEqual({ sha256, size: SIZE });
  });
});
