/**
 * The fault proxy itself (tests/support/fault-proxy.ts): when a client leaves before its whole body
 * was passed on, the server's side of the request is cut too, even when the proxy had read the last
 * bytes but not yet forwarded them (they were waiting behind a slow server, here a throttle).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';

const KiB = 1024;
let server: http.Server;
let proxy: FaultProxy;
/** How each request the server saw ended: 'end' (whole body), 'cut', or still open. */
const seen: Array<{ bytes: number; ended: 'end' | 'cut' | 'open' }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const entry = { bytes: 0, ended: 'open' as 'end' | 'cut' | 'open' };
    seen.push(entry);
    req.on('data', (piece: Buffer) => (entry.bytes += piece.length));
    req.on('end', () => {
      entry.ended = 'end';
      res.end('{}');
    });
    req.on('close', () => {
      if (entry.ended === 'open') entry.ended = 'cut';
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // 16 KiB/s: after the first 16 KiB piece the proxy waits a second before it reads on.
  proxy = await startFaultProxy({ target: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, chunkBytesPerSecond: 16 * KiB });
});

afterAll(async () => {
  await proxy?.close();
  server?.closeAllConnections();
  server?.close();
});

it('cuts the server side of a request whose client left before its whole body was passed on', async () => {
  const req = http.request(`${proxy.url}${API.chunkUpload}?uploadId=u&index=0`, { method: 'POST', agent: false, headers: { 'content-length': 32 * KiB } });
  req.on('error', () => undefined);
  const write = (bytes: number) => new Promise<void>((resolve) => req.write(Buffer.alloc(bytes), () => resolve()));
  await write(16 * KiB);
  await expect.poll(() => seen[0]?.bytes ?? 0, { timeout: 5_000, interval: 10 }).toBe(16 * KiB);
  // The rest reaches the proxy while it waits: the body is complete there, but not passed on.
  await write(16 * KiB);
  await new Promise((resolve) => setTimeout(resolve, 100));
  req.destroy();
  await expect.poll(() => seen[0]!.ended, { timeout: 5_000, interval: 10 }).toBe('cut');
  expect(seen[0]!.bytes).toBe(16 * KiB);
});
