/**
 * The engine's chunk transport under Node (workers/node/chunk-transport.ts) against a real HTTP
 * server: a disk range goes byte-exact through its two reused read buffers, progress climbs to the
 * body's size, a server that refuses before reading the body ends the request instead of hanging, an
 * answer cut before its end fails the request, an abort after a refusal arrived rejects with its reason,
 * stall detection gives the answer after the whole body a bound of its own, and an abort rejects
 * with its reason.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TIMEOUT_STALLS } from '../../common/transfer/constants';
import { StallError, withStallDetection } from '../../workers/engine/transport';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';
import { createCookieFetch, openFileSource } from '../replay/node-runtime';

const MiB = 1024 * 1024;
let dir: string;
let file: string;
let content: Buffer;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'transport-'));
  file = path.join(dir, 'source.bin');
  content = randomBytes(9 * MiB + 4321);
  await fsp.writeFile(file, content);
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/cut')) {
      // The answer's headers, then the connection is gone before its body.
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': '76' });
      res.flushHeaders();
      setTimeout(() => req.socket.destroy(), 50).unref();
      return;
    }
    if (req.url?.startsWith('/refuse')) {
      // Answers at once without reading the body, like a refusal on headers.
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errorCode: 'TOO_LARGE' }));
      return;
    }
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (piece: Buffer) => {
      hash.update(piece);
      bytes += piece.length;
    });
    // `?answerAfter=ms`: the whole body is read, the answer comes that much later (a digest and fsync).
    const answerAfter = Number(new URL(req.url ?? '/', base).searchParams.get('answerAfter') ?? 0);
    req.on('end', () => {
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ bytes, sha256: hash.digest('hex'), cookie: req.headers.cookie ?? null }));
      }, answerAfter).unref();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('Node chunk transport', () => {
  it('sends disk ranges byte-exact, with progress up to the size, request after request', async () => {
    const transport = createNodeChunkTransport(createCookieFetch('sid=abc'));
    const source = await openFileSource(file);
    // Ranges of several sizes, one shorter than a read buffer and one not aligned to anything.
    for (const [start, end] of [[0, 4 * MiB], [4 * MiB, 8 * MiB + 17], [8 * MiB + 17, content.length], [5, 700]] as const) {
      const progress: number[] = [];
      const answer = await transport({
        url: `${base}/chunk`,
        body: source.slice(start, end),
        headers: {},
        signal: new AbortController().signal,
        onProgress: (sent) => progress.push(sent),
      });
      const expected = content.subarray(start, end);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ bytes: expected.length, sha256: createHash('sha256').update(expected).digest('hex'), cookie: 'sid=abc' });
      expect(progress.at(-1)).toBe(expected.length);
      expect(progress.every((sent, i) => i === 0 || sent > progress[i - 1]!)).toBe(true);
    }
  });

  it('ends a request the server refused before reading its body, and the next one still goes through', async () => {
    const transport = createNodeChunkTransport(createCookieFetch());
    const source = await openFileSource(file);
    const send = (url: string, body: Blob) => transport({ url, body, headers: {}, signal: new AbortController().signal, onProgress: () => undefined });
    const refused = await send(`${base}/refuse`, source.slice(0, 8 * MiB));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ errorCode: 'TOO_LARGE' });
    // Same keep-alive agent: a connection left with half a body must not carry the next request.
    const next = await send(`${base}/chunk`, source.slice(0, 2 * MiB));
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ bytes: 2 * MiB, sha256: createHash('sha256').update(content.subarray(0, 2 * MiB)).digest('hex') });
  });

  it('an answer cut before its end fails the request (as XHR reports it), not an answer with no body', async () => {
    const transport = createNodeChunkTransport(createCookieFetch());
    const source = await openFileSource(file);
    const send = (url: string, body: Blob) => transport({ url, body, headers: {}, signal: new AbortController().signal, onProgress: () => undefined });
    // The connection gone after the headers: refused mid-body, and after the whole body (Node's read of
    // the answer fails; the transport passes that on).
    await expect(send(`${base}/cut`, source.slice(0, 8 * MiB))).rejects.toThrow();
    await expect(send(`${base}/cut`, source.slice(0, 1000))).rejects.toThrow();
    const next = await send(`${base}/chunk`, source.slice(0, 2 * MiB));
    expect(next.status).toBe(200);
  });

  it('aborted after a refusal arrived but before its body was read: rejects with the reason, not a 500 without its body', async () => {
    // The engine aborts a chunk's siblings when one fails. A sibling refused early (its answer in, its
    // body still being sent) was aborted before the transport read the answer: ClientRequest.destroy
    // dropped the answer's body, the read ended quietly, and the transport answered a 500 with no body,
    // which cluster-faults recorded as an uncoded refusal (4 runs in 6 under load, 2026-12-01).
    const reason = new Error('a sibling chunk failed');
    const controller = new AbortController();
    const answer = JSON.stringify({ errorCode: 'SYS-5000', message: 'refused' });
    const refusing = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write(`HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: ${answer.length}\r\n\r\n${answer}`);
        socket.pause(); // reads no more of the body
        setTimeout(() => controller.abort(reason), 20);
      });
    });
    refusing.listen(0, '127.0.0.1');
    await once(refusing, 'listening');
    try {
      // Pieces 50 ms apart: the body is still being sent when the abort comes.
      const transport = createNodeChunkTransport(createCookieFetch(), { throttle: () => new Promise((resolve) => setTimeout(resolve, 50)) });
      const source = await openFileSource(file);
      const sending = transport({ url: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/chunk`, body: source.slice(0, 8 * MiB), headers: {}, signal: controller.signal, onProgress: () => undefined });
      await expect(sending).rejects.toBe(reason);
    } finally {
      refusing.close();
    }
  });

  it('with stall detection: the answer after the whole body gets a longer bound than the body', async () => {
    const STALL_MS = 400;
    const transport = withStallDetection(createNodeChunkTransport(createCookieFetch()), STALL_MS);
    const source = await openFileSource(file);
    const send = (answerAfter: number) =>
      transport({ url: `${base}/chunk?answerAfter=${answerAfter}`, body: source.slice(0, 2 * MiB), headers: {}, signal: new AbortController().signal, onProgress: () => undefined });
    // Longer than the stall timeout, within the answer's bound: waited for.
    const slow = await send(STALL_MS * 1.5);
    expect(slow.status).toBe(200);
    expect(slow.body).toMatchObject({ bytes: 2 * MiB });
    // No answer at all: aborted once the answer's bound has passed.
    const started = Date.now();
    await expect(send(60_000)).rejects.toThrow(new StallError(ANSWER_TIMEOUT_STALLS * STALL_MS));
    expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_TIMEOUT_STALLS * STALL_MS);
  });

  it('rejects with the abort reason', async () => {
    const transport = createNodeChunkTransport(createCookieFetch());
    const source = await openFileSource(file);
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    const sending = transport({
      url: `${base}/chunk`,
      body: source.slice(0, content.length),
      headers: {},
      signal: controller.signal,
      onProgress: (sent) => sent > 0 && controller.abort(reason),
    });
    await expect(sending).rejects.toBe(reason);
  });
});
