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

/** A fresh, empty queue database in memory. */
export function openNodeTransferDb(name = 'transfer-engine-node'): TransferDb {
  return openTransferDb(name, { indexedDB: new IDBFactory(), IDBKeyRange });
}

/** A disk file as a lazily-read `File` (nothing is read until a slice is). */
export async function openFileSource(filePath: string, name = path.basename(filePath)): Promise<File> {
  const stat = await fsp.stat(filePath);
  const blob = await fs.openAsBlob(filePath);
  return new File([blob], name, { lastModified: Math.floor(stat.mtimeMs) });
}

export function engineConfigFor(serverUrl: string): EngineConfig {
  return { apiBase: serverUrl.replace(/\/+$/, ''), platform: 'desktop', networkEnv: 'internal' };
}

/** Counts what the engine handed to fetch for chunk uploads (every attempt, whole body size). */
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

/** Node's fetch with a cookie jar holding the session cookie, as a browser would keep it. */
export function createCookieFetch(initialCookie = ''): CookieFetch {
  let cookie = initialCookie;
  const counters: FetchCounters = { chunkRequests: 0, chunkBytes: 0, chunkBytesByUpload: new Map(), requests: 0 };
  const fetchFn: FetchFn = async (input, init) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    counters.requests++;
    const url = new URL(input);
    if (url.pathname === API.chunkUpload) {
      const bytes = bodySize(init.body);
      const uploadId = url.searchParams.get('uploadId') ?? '';
      counters.chunkRequests++;
      counters.chunkBytes += bytes;
      counters.chunkBytesByUpload.set(uploadId, (counters.chunkBytesByUpload.get(uploadId) ?? 0) + bytes);
    }
    const response = await fetch(input, { ...init, headers });
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      if (pair?.startsWith('sid=')) cookie = pair === 'sid=' ? '' : pair;
    }
    return response;
  };
  return {
    fetch: fetchFn,
    cookie: () => cookie,
    setCookie: (c) => {
      cookie = c;
    },
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
