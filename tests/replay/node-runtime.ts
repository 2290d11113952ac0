/**
 * Everything `createEngine` needs to run under Node (replay CLI, integration tests, benchmarks):
 *  - a Dexie queue on fake-indexeddb (a private IDBFactory per engine, so engines never share a queue);
 *  - a file source: `fs.openAsBlob(path)` wrapped in a `File` (for its name). Both are lazy: a slice
 *    reads only its own byte range from disk when read, so a 4 GiB file never sits in memory.
 *    (structuredClone of such a File — what fake-indexeddb does on put — yields a Blob still backed
 *    by the disk file, so the queue can persist it like Chromium persists a File reference.)
 *  - Node's fetch with a one-cookie jar (the `sid` session cookie), plus counters of the chunk bytes
 *    handed to fetch;
 *  - login through the real captcha: with DRIVE_TEST_HOOKS=1 the server appends every issued
 *    captcha's answer to DATA_DIR/test-outbox/captcha.jsonl; a remote server without hooks needs
 *    a cookie (`--cookie 'sid=...'`) instead.
 */
import { promises as fsp } from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { API } from '../../common/api/paths';
import { clientHeaders } from '../../common/api/client-env';
import { encryptPassword } from '../../common/crypto/password-cipher';
import type { EngineConfig } from '../../common/transfer/engine-api';
import { openTransferDb, type TransferDb } from '../../workers/queue/db';
import type { FetchFn } from '../../workers/engine/api-client';
import { readDiskRangeInto, recordDiskRange, sliceBounds } from './disk-ranges';

/** A fresh, empty queue database in memory. */
export function openNodeTransferDb(name = 'transfer-engine-node'): TransferDb {
  return openTransferDb(name, { indexedDB: new IDBFactory(), IDBKeyRange });
}

/** A disk file as a lazily-read `File` (nothing is read until a slice is). */
export async function openFileSource(filePath: string, name = path.basename(filePath)): Promise<File> {
  const stat = await fsp.stat(filePath);
  if (stat.size >= OPEN_AS_BLOB_SIZE_LIMIT) return new LargeDiskFile(filePath, name, stat.size, Math.floor(stat.mtimeMs));
  return new DiskFile(await fs.openAsBlob(filePath), filePath, name, Math.floor(stat.mtimeMs));
}

/**
 * A disk file as a `File` built on `fs.openAsBlob` (lazy: nothing is read until a slice is), whose
 * slices are recorded in disk-ranges.ts so the Node hash pool and transport read them from the file.
 */
class DiskFile extends File {
  readonly #path: string;

  constructor(blob: Blob, filePath: string, name: string, lastModified: number) {
    super([blob], name, { lastModified });
    this.#path = filePath;
    recordDiskRange(this, { path: filePath, start: 0, end: this.size });
  }

  override slice(start = 0, end = this.size, contentType = ''): Blob {
    const slice = super.slice(start, end, contentType);
    const { from, to } = sliceBounds(start, end, this.size);
    recordDiskRange(slice, { path: this.#path, start: from, end: to });
    return slice;
  }
}

/**
 * Node 20's `fs.openAsBlob` keeps the size in 32 bits: a 4 GiB file comes back as a 0-byte Blob, and
 * 4 GiB + 7 as 7 bytes. Files that large get {@link LargeDiskFile} instead.
 */
const OPEN_AS_BLOB_SIZE_LIMIT = 2 ** 32;

/**
 * A `File` over a disk file of any size that reads nothing until sliced, and whose slices read
 * nothing until read ({@link DiskRangeBlob}). Reading the whole file through it would load the whole
 * file, so it refuses an unsliced read.
 */
class LargeDiskFile extends File {
  readonly #path: string;
  readonly #size: number;

  constructor(filePath: string, name: string, size: number, lastModified: number) {
    super([], name, { lastModified });
    this.#path = filePath;
    this.#size = size;
    recordDiskRange(this, { path: filePath, start: 0, end: size });
  }

  override get size(): number {
    return this.#size;
  }

  override slice(start = 0, end = this.#size, contentType = ''): Blob {
    const { from, to } = sliceBounds(start, end, this.#size);
    return new DiskRangeBlob(this.#path, from, to, contentType);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.reject(new Error('LargeDiskFile: read a slice, not the whole file'));
  }

  override stream(): ReturnType<Blob['stream']> {
    throw new Error('LargeDiskFile: read a slice, not the whole file');
  }

  override text(): Promise<string> {
    return Promise.reject(new Error('LargeDiskFile: read a slice, not the whole file'));
  }
}

/**
 * Bytes [start, end) of a disk file as a Blob that reads them only when asked (each read opens the
 * file, so a file changed meanwhile is seen changed, as a browser's File would fail). Recorded in
 * disk-ranges.ts, so the Node hash pool and transport read the file themselves.
 */
class DiskRangeBlob extends Blob {
  constructor(
    private readonly filePath: string,
    private readonly start: number,
    private readonly end: number,
    contentType: string,
  ) {
    super([], { type: contentType });
    recordDiskRange(this, { path: filePath, start, end });
  }

  override get size(): number {
    return this.end - this.start;
  }

  override slice(start = 0, end = this.size, contentType = ''): Blob {
    const { from, to } = sliceBounds(start, end, this.size);
    return new DiskRangeBlob(this.filePath, this.start + from, this.start + to, contentType);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = new Uint8Array(this.size);
    const handle = await fsp.open(this.filePath, 'r');
    try {
      await readDiskRangeInto(handle, bytes, this.start, bytes.length, { path: this.filePath, start: this.start, end: this.end });
    } finally {
      await handle.close();
    }
    return bytes.buffer;
  }

  override stream(): ReturnType<Blob['stream']> {
    const read = () => this.arrayBuffer();
    return new ReadableStream<Uint8Array<ArrayBuffer>>({
      async pull(controller) {
        controller.enqueue(new Uint8Array(await read()));
        controller.close();
      },
    }) as ReturnType<Blob['stream']>;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }
}

export function engineConfigFor(serverUrl: string): EngineConfig {
  return { apiBase: serverUrl.replace(/\/+$/, ''), platform: 'desktop', networkEnv: 'internal' };
}

/** Counts what the engine handed to fetch or the chunk transport for chunk uploads (every attempt, whole body size). */
export interface FetchCounters {
  chunkRequests: number;
  chunkBytes: number;
  /** Chunk bytes per upload session id (the `uploadId` query parameter). */
  chunkBytesByUpload: Map<string, number>;
  requests: number;
}

export interface CookieFetch {
  fetch: FetchFn;
  /** 'sid=...' or ''. */
  cookie(): string;
  setCookie(cookie: string): void;
  /** Keeps the session cookie of a response's Set-Cookie headers (for requests sent without `fetch`). */
  absorbSetCookie(setCookies: readonly string[]): void;
  /** Counts one request to `url` with a body of `bodyBytes` (done by `fetch`; call it for others). */
  countRequest(url: string, bodyBytes: number): void;
  counters: FetchCounters;
  resetCounters(): void;
}

function bodySize(body: BodyInit | null | undefined): number {
  if (!body) return 0;
  if (body instanceof Blob) return body.size;
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  return 0;
}

/** The session cookie ('sid=...', or '' once cleared) after a response's Set-Cookie headers. */
export function sessionCookieAfter(current: string, setCookies: readonly string[]): string {
  let cookie = current;
  for (const c of setCookies) {
    const [pair] = c.split(';');
    if (pair?.startsWith('sid=')) cookie = pair === 'sid=' ? '' : pair;
  }
  return cookie;
}

/** Node's fetch with a cookie jar holding the session cookie, as a browser would keep it. */
export function createCookieFetch(initialCookie = ''): CookieFetch {
  let cookie = initialCookie;
  const counters: FetchCounters = { chunkRequests: 0, chunkBytes: 0, chunkBytesByUpload: new Map(), requests: 0 };
  const countRequest = (input: string, bytes: number) => {
    counters.requests++;
    const url = new URL(input);
    if (url.pathname !== API.chunkUpload) return;
    const uploadId = url.searchParams.get('uploadId') ?? '';
    counters.chunkRequests++;
    counters.chunkBytes += bytes;
    counters.chunkBytesByUpload.set(uploadId, (counters.chunkBytesByUpload.get(uploadId) ?? 0) + bytes);
  };
  const absorbSetCookie = (setCookies: readonly string[]) => {
    cookie = sessionCookieAfter(cookie, setCookies);
  };
  const fetchFn: FetchFn = async (input, init) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    countRequest(input, bodySize(init.body));
    const response = await fetch(input, { ...init, headers });
    absorbSetCookie(response.headers.getSetCookie());
    return response;
  };
  return {
    fetch: fetchFn,
    cookie: () => cookie,
    setCookie: (c) => {
      cookie = c;
    },
    absorbSetCookie,
    countRequest,
    counters,
    resetCounters() {
      counters.chunkBytes = 0;
      counters.chunkRequests = 0;
      counters.requests = 0;
      counters.chunkBytesByUpload.clear();
    },
  };
}

export interface LoginOptions {
  serverUrl: string;
  username: string;
  password: string;
  /** The server's captcha outbox (DATA_DIR/test-outbox/captcha.jsonl), written under DRIVE_TEST_HOOKS=1. */
  captchaOutbox: string;
  signal?: AbortSignal;
}

/** Logs in through the real captcha flow; the session cookie lands in `jar`. */
export async function loginWithOutbox(jar: CookieFetch, options: LoginOptions): Promise<void> {
  const base = options.serverUrl.replace(/\/+$/, '');
  const signal = options.signal ?? AbortSignal.timeout(30_000);
  const headers = clientHeaders('desktop', 'internal');
  const captchaRes = await jar.fetch(base + API.captcha, { method: 'GET', headers, signal });
  if (!captchaRes.ok) throw new Error(`captcha request failed: HTTP ${captchaRes.status}`);
  const { data } = (await captchaRes.json()) as { data: { captchaId: string } };
  let answer: string | undefined;
  const lines = (await fsp.readFile(options.captchaOutbox, 'utf8')).trim().split('\n').reverse();
  for (const line of lines) {
    const entry = JSON.parse(line) as { captchaId: string; answer: string };
    if (entry.captchaId === data.captchaId) {
      answer = entry.answer;
      break;
    }
  }
  if (!answer) throw new Error(`captcha ${data.captchaId} not found in ${options.captchaOutbox} (is DRIVE_TEST_HOOKS=1 set?)`);
  const res = await jar.fetch(base + API.login, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: options.username,
      password: encryptPassword(options.password),
      captchaId: data.captchaId,
      captchaCode: answer,
    }).toString(),
    signal,
  });
  const text = await res.text();
  if (!res.ok || !jar.cookie()) throw new Error(`login failed: HTTP ${res.status} ${text.slice(0, 200)}`);
}

/** The captcha outbox of a server started with DATA_DIR=dataDir and DRIVE_TEST_HOOKS=1. */
export function captchaOutboxOf(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'captcha.jsonl');
}
