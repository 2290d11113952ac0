/**
 * A retry of a chunk is not held behind an earlier request for it that the network keeps open (a
 * proxy or NAT that never tells the server the client left): the earlier one is cut once it has been
 * quiet for IDLE_WRITER_CUT_MS while the retry waits, its bytes kept as the chunk's partial. An
 * earlier request whose bytes keep coming is waited for, however long it takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_WRITER_CUT_MS } from '../../server/services/chunk-writers';
import { bytesReceived, mergeAndCheck, openChunkRequest, putRest, untilBytesReceived } from './chunk-kit';
import { type Client, putChunk, randomContent, startServerAsAdmin, type TestServer } from './helpers';
import { openUploadSession } from './upload-session';

const CHUNK = 256 * 1024;
const QUARTER = CHUNK / 4;

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin({ chunkSize: CHUNK }));
});
afterAll(async () => {
  server?.app.server.closeAllConnections();
  await server?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with `promise`'s value, or 'still waiting' after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, sleep(ms).then(() => 'still waiting' as const)]);

describe('writers of one chunk', () => {
  it('a retry of a chunk whose earlier request the network holds open completes promptly, from the bytes that request left', async () => {
    const content = randomContent(CHUNK);
    const session = await openUploadSession(admin, content, 'held.bin', CHUNK);
    const before = await bytesReceived(admin);
    // Half the chunk arrives, then the client is gone but the connection stays open: no byte, no end.
    const held = openChunkRequest(server, admin, session.uploadId, 0, content);
    await held.send(content.subarray(0, 2 * QUARTER));
    await untilBytesReceived(admin, before + 2 * QUARTER);

    // The retry resumes from what the held request received: it waits for the chunk meanwhile.
    const started = Date.now();
    const retry = await within(putRest(admin, session.uploadId, 0, content, 2 * QUARTER), IDLE_WRITER_CUT_MS + 8_000);
    expect(retry).toEqual({ status: 200, body: { data: { index: 0, size: CHUNK } } });
    expect(Date.now() - started).toBeLessThan(IDLE_WRITER_CUT_MS + 5_000);
    // The held request was cut without an answer, as a dropped connection would be.
    expect(await within(held.answer, 5_000)).toBe('cut');
    await mergeAndCheck(admin, session.uploadId, 'held.bin', content);
  });

  it('an earlier request whose bytes keep coming is not cut: the retry waits for it, and both are answered', async () => {
    const content = randomContent(CHUNK);
    const session = await openUploadSession(admin, content, 'slow.bin', CHUNK);
    const before = await bytesReceived(admin);
    const slow = openChunkRequest(server, admin, session.uploadId, 0, content);
    await slow.send(content.subarray(0, QUARTER));
    await untilBytesReceived(admin, before + QUARTER);

    const retry = putChunk(admin, session.uploadId, 0, content);
    // The rest in three pieces, each after a pause shorter than the cut, in all longer than it.
    const pause = Math.ceil((IDLE_WRITER_CUT_MS * 2) / 3);
    for (let piece = 1; piece < 4; piece++) {
      await sleep(pause);
      expect(await within(retry, 0)).toBe('still waiting');
      await slow.send(content.subarray(piece * QUARTER, (piece + 1) * QUARTER));
    }
    expect(await within(slow.answer, 10_000)).toBe(200);
    expect((await within(retry, 10_000)) as { status: number }).toMatchObject({ status: 200 });
    await mergeAndCheck(admin, session.uploadId, 'slow.bin', content);
  });
});
