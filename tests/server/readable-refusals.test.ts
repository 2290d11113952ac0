import { execFile } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { LINGER } from '../../server/http/readable-refusals';
import { chunkDigestHex } from '../support/chunk-digest';
import { bytesReceived } from './chunk-kit';
import { type Client, postChunkExist, randomContent, startServerAsAdmin, type TestServer } from './helpers';

/**
 * Issue 35, finding 5: every refusal reaches the client. Where the headers decide, the answer comes
 * before `100 Continue` and no body is read; where the answer comes before the body's end, the server
 * reads and drops the rest (bounded) so the answer is not lost to a reset. Each case runs RUNS times:
 * before the fix a client writing its whole body first got EPIPE in every run, never the answer.
 */
const RUNS = 20;
const MB10 = 10 * 1024 * 1024;

let server: TestServer;
let admin: Client;
let port: number;
let dir: string;
/** A chunk/exist-announced upload of one 4 MiB chunk, and its bytes. */
let chunk: Buffer;
let uploadId: string;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  port = Number(new URL(server.baseUrl).port);
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'readable-refusals-'));
  chunk = randomContent(4 * 1024 * 1024);
  const open = await postChunkExist(admin, chunk, 'refusal-probe.bin');
  expect(open.status).toBe(200);
  uploadId = open.body.data.uploadId;
});
afterAll(async () => {
  await server.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

const BAD_DIGEST = '0'.repeat(64);
const jsonBody = () => Buffer.concat([Buffer.from('{"parentId":null,"category":1,"name":"'), Buffer.alloc(MB10, 0x61), Buffer.from('"}')]);
const formBody = () => Buffer.concat([Buffer.from('username=admin&password='), Buffer.alloc(MB10, 0x61)]);
const chunkPath = () => `${API.chunkUpload}?uploadId=${uploadId}&index=0`;

interface Case {
  label: string;
  path: () => string;
  headers: () => Record<string, string>;
  body: () => Buffer;
  status: number;
  errorCode: string;
}

/** Refusals decided by the headers alone. */
const CASES: Case[] = [
  {
    label: 'a 10 MB JSON body to mkdir (Content-Length over the limit)',
    path: () => API.mkdir,
    headers: () => ({ 'content-type': 'application/json', cookie: admin.cookie }),
    body: jsonBody,
    status: 413,
    errorCode: ERRORS.PAYLOAD_TOO_LARGE.code,
  },
  {
    label: 'a 10 MB form body to the login',
    path: () => API.login,
    headers: () => ({ 'content-type': 'application/x-www-form-urlencoded' }),
    body: formBody,
    status: 413,
    errorCode: ERRORS.PAYLOAD_TOO_LARGE.code,
  },
  {
    label: 'a 10 MB body without a session',
    path: () => API.mkdir,
    headers: () => ({ 'content-type': 'application/json' }),
    body: jsonBody,
    status: 401,
    errorCode: ERRORS.UNAUTHORIZED.code,
  },
  {
    label: 'a chunk with a digest header that was not announced',
    path: chunkPath,
    headers: () => ({ 'content-type': 'application/octet-stream', cookie: admin.cookie, 'x-chunk-sha256': BAD_DIGEST }),
    body: () => chunk,
    status: 400,
    errorCode: ERRORS.CHUNK_DIGEST_MISMATCH.code,
  },
  {
    label: 'a chunk of an unknown upload',
    path: () => `${API.chunkUpload}?uploadId=AAAAAAAAAAAAAAAAAAAAAA&index=0`,
    headers: () => ({ 'content-type': 'application/octet-stream', cookie: admin.cookie, 'x-chunk-sha256': chunkDigestHex(chunk) }),
    body: () => chunk,
    status: 400,
    errorCode: ERRORS.UPLOAD_NOT_FOUND.code,
  },
];

function requestHead(pathname: string, headers: Record<string, string>, length: number, expect100: boolean): string {
  const lines = [`POST ${pathname} HTTP/1.1`, 'Host: 127.0.0.1', `Content-Length: ${length}`];
  if (expect100) lines.push('Expect: 100-continue');
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

interface RawAnswer {
  status: number;
  body: string;
}

/** Parses the first complete answer (status, Content-Length body) out of `text`; null while incomplete. */
function parseAnswer(text: string): RawAnswer | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = text.slice(0, end);
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const body = text.slice(end + 4);
  if (!length || body.length < Number(length[1])) return null;
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: body.slice(0, Number(length[1])) };
}

/**
 * Sends only the head, with `Expect: 100-continue`, and reports the first status line the server
 * sends (the body is never sent): a refusal must come first, not `100 Continue`.
 */
function firstWordAfterExpect(c: Case): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const line = text.indexOf('\r\n');
      if (line < 0) return;
      const status = text.slice(0, line);
      if (status.includes(' 100 ')) {
        socket.destroy();
        resolve(status);
        return;
      }
      const answer = parseAnswer(text);
      if (answer) {
        socket.destroy();
        resolve(`${answer.status} ${(JSON.parse(answer.body) as { errorCode: string }).errorCode}`);
      }
    });
    socket.on('error', reject);
    socket.write(requestHead(c.path(), c.headers(), c.body().length, true));
  });
}

/**
 * A client that writes its whole request before it reads anything (as many simple clients do):
 * resolves with the answer it then reads, or with the error that ended the connection first.
 */
function writeAllThenRead(c: Case): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    let failed: string | null = null;
    socket.on('error', (err: NodeJS.ErrnoException) => {
      failed ??= err.code ?? err.message;
    });
    socket.write(requestHead(c.path(), c.headers(), c.body().length, false));
    socket.write(c.body(), () => {
      let text = '';
      const settle = () => {
        const answer = parseAnswer(text);
        resolve(answer ? `${answer.status} ${(JSON.parse(answer.body) as { errorCode: string }).errorCode}` : `no answer: ${failed ?? 'closed'}`);
        socket.destroy();
      };
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (parseAnswer(text)) settle();
      });
      socket.on('close', settle);
      socket.resume();
    });
  });
}

/** Node's http client writing the body in 64 KiB pieces without Expect; any request error is reported. */
function nodeClient(c: Case): Promise<string> {
  return new Promise((resolve) => {
    const body = c.body();
    const req = http.request(server.baseUrl + c.path(), { method: 'POST', agent: false, headers: { ...c.headers(), 'content-length': String(body.length) } });
    let answer: string | null = null;
    let failed: string | null = null;
    req.on('error', (err: NodeJS.ErrnoException) => {
      failed ??= err.code ?? err.message;
    });
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        answer = `${res.statusCode} ${(JSON.parse(Buffer.concat(parts).toString()) as { errorCode: string }).errorCode}`;
      });
    });
    req.on('close', () => setImmediate(() => resolve(failed ? `${answer ?? 'no answer'} + error ${failed}` : (answer ?? 'no answer'))));
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
    req.end();
  });
}

/** curl as a user runs it: it sends `Expect: 100-continue` for bodies this large. */
async function curl(c: Case): Promise<string> {
  const file = path.join(dir, `${c.status}-${c.errorCode}.bin`);
  await fsp.writeFile(file, c.body());
  const headers = Object.entries(c.headers()).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '-v', '-o', '-', '-w', '\n%{http_code}', ...headers, '--data-binary', `@${file}`, server.baseUrl + c.path()], (err, stdout, stderr) => {
      const lines = stdout.trim().split('\n');
      const status = lines.pop();
      const code = (JSON.parse(lines.join('\n') || '{}') as { errorCode?: string }).errorCode;
      const sentExpect = /^> Expect: 100-continue/im.test(stderr);
      const got100 = /^< HTTP\/1\.1 100/im.test(stderr);
      resolve(`${status} ${code}${err ? ` curl failed: ${stderr.split('\n').filter((l) => l.startsWith('curl:')).join(' ')}` : ''}${sentExpect ? '' : ' (no Expect sent)'}${got100 ? ' after 100 Continue' : ''}`);
    });
  });
}

/** Runs `probe` RUNS times one after the other; returns how often each outcome came. */
async function tally(probe: () => Promise<string>): Promise<Record<string, number>> {
  const seen: Record<string, number> = {};
  for (let i = 0; i < RUNS; i++) {
    const outcome = await probe();
    seen[outcome] = (seen[outcome] ?? 0) + 1;
  }
  return seen;
}

describe('refusals decided by the headers come before 100 Continue and read no body', () => {
  for (const c of CASES) {
    it(`${c.label}: the answer, not 100 Continue, ${RUNS} times of ${RUNS}`, async () => {
      const before = await bytesReceived(admin);
      expect(await tally(() => firstWordAfterExpect(c))).toEqual({ [`${c.status} ${c.errorCode}`]: RUNS });
      expect(await bytesReceived(admin)).toBe(before);
    });
  }

  it('curl (Expect: 100-continue) reads each refusal and sends no chunk bytes', async () => {
    const before = await bytesReceived(admin);
    for (const c of CASES) expect(await tally(() => curl(c)), c.label).toEqual({ [`${c.status} ${c.errorCode}`]: RUNS });
    expect(await bytesReceived(admin)).toBe(before);
  });

  it('a body that is taken gets its 100 Continue when it is read', async () => {
    const content = randomContent(2 * 1024 * 1024);
    const open = await postChunkExist(admin, content, `continued-${Date.now()}.bin`);
    const upload = open.body.data.uploadId;
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      let sent = false;
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (!sent && text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
          sent = true;
          text = '';
          socket.write(content);
        }
        const parsed = sent ? parseAnswer(text) : null;
        if (parsed) {
          socket.destroy();
          resolve(parsed);
        }
      });
      socket.on('error', reject);
      socket.write(
        requestHead(`${API.chunkUpload}?uploadId=${upload}&index=0`, { 'content-type': 'application/octet-stream', cookie: admin.cookie, 'x-chunk-sha256': chunkDigestHex(content) }, content.length, true),
      );
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ data: { index: 0, size: content.length } });
  });
});

describe('an answer given before the body ends still reaches the client', () => {
  for (const c of CASES) {
    it(`${c.label}: a client writing its whole body first reads the answer, ${RUNS} times of ${RUNS}`, async () => {
      expect(await tally(() => writeAllThenRead(c))).toEqual({ [`${c.status} ${c.errorCode}`]: RUNS });
    });
  }

  it("Node's http client writing a large body without Expect gets each answer and no error", async () => {
    for (const c of CASES) expect(await tally(() => nodeClient(c)), c.label).toEqual({ [`${c.status} ${c.errorCode}`]: RUNS });
  });

  it('a JSON body sent chunked, without a length, refused once it passes the limit: the client reads the 413', async () => {
    const body = jsonBody();
    const framed = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    const probe = () =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.pause();
        socket.on('error', () => undefined);
        socket.write(`POST ${API.mkdir} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\ncontent-type: application/json\r\ncookie: ${admin.cookie}\r\n\r\n`);
        socket.write(framed, () => {
          let text = '';
          socket.on('data', (d: Buffer) => {
            text += d.toString('latin1');
            const answer = parseAnswer(text);
            if (answer) {
              socket.destroy();
              resolve(`${answer.status} ${(JSON.parse(answer.body) as { errorCode: string }).errorCode}`);
            }
          });
          socket.on('close', () => resolve('no answer'));
          socket.resume();
        });
      });
    expect(await tally(probe)).toEqual({ [`413 ${ERRORS.PAYLOAD_TOO_LARGE.code}`]: RUNS });
  });
});

describe('lingering is bounded', () => {
  /** Sends the head of a refused request announcing `announced` bytes, then `feed` decides what follows. */
  function refusedConnection(announced: number) {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const answer = new Promise<RawAnswer>((resolve) => {
      socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        const parsed = parseAnswer(text);
        if (parsed) resolve(parsed);
      });
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(requestHead(API.mkdir, { 'content-type': 'application/json' }, announced, false));
    return { socket, answer, closed };
  }

  it('a body that goes on and on is cut after LINGER.maxBytes, the answer read first', async () => {
    const { socket, answer, closed } = refusedConnection(1024 ** 4);
    expect((await answer).status).toBe(401);
    const piece = Buffer.alloc(1024 * 1024);
    // Bytes the socket took without an error (the kernel's buffers on both sides included).
    let written = 0;
    while (written < 4 * LINGER.maxBytes) {
      const taken = await new Promise<boolean>((resolve) => socket.write(piece, (err) => resolve(!err)));
      if (!taken) break;
      written += piece.length;
    }
    await closed;
    expect(written).toBeGreaterThan(LINGER.maxBytes);
    // What the kernel buffers on both sides is all that passes the bound.
    expect(written).toBeLessThan(LINGER.maxBytes + 32 * 1024 * 1024);
  });

  it('a client that goes quiet after the answer is let go after LINGER.idleMs', async () => {
    const { socket, answer, closed } = refusedConnection(MB10);
    socket.write(Buffer.alloc(1024));
    expect((await answer).status).toBe(401);
    const since = Date.now();
    await closed;
    expect(Date.now() - since).toBeGreaterThanOrEqual(LINGER.idleMs - 50);
  });
});
