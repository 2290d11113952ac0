/**
 * An in-memory stand-in for the upload endpoints, used as the engine's injected fetch. It checks what
 * the real server checks (headers, digests) and records every request, so tests can assert on them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../../common/api/client-env';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { HEADER_CHUNK_SHA256 } from '../../../common/transfer/constants';
import type { BatchUploadManifest, BatchUploadResult } from '../../../common/transfer/batch-upload';
import type { FileEntry } from '../../../common/api/types';
import type { MultipleFileCheckRequest, RelativePathDirCreateRequest, SecondUploadRequest } from '../../../common/api/endpoints/pre-upload';
import type { MultipleFileCheckResult } from '../../../common/transfer/checks';
import type { ChunkExistRequest } from '../../../common/api/endpoints/uploads';
import type { ByteRange } from '../../../common/transfer/second-upload';
import { chunkDigestHex } from '../../support/chunk-digest';

export interface RecordedRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  query: URLSearchParams;
  credentials: RequestCredentials | undefined;
  /** Parsed JSON body of JSON requests. */
  body?: unknown;
}

/** Lets a test replace the answer to one request; return undefined to let the fake answer. */
type InterceptResult = Response | 'network-error' | undefined;
export type Interceptor = (req: RecordedRequest, callIndex: number) => InterceptResult | Promise<InterceptResult>;

/** The sensitive/locked part of a finding (what checkFileSensitiveOrLock answers). */
const pick = (f: Partial<MultipleFileCheckResult> | undefined) => ({ ...(f?.sensitive !== undefined && { sensitive: f.sensitive }), ...(f?.locked !== undefined && { locked: f.locked }) });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export class FakeUploadServer {
  chunkSize = MIN_CHUNK_SIZE;
  maxFileSize = 1 << 30;
  /** Chunks already stored per fingerprint before any upload (e.g. from an earlier session). */
  preStored = new Map<string, Set<number>>();
  /**
   * Prefixes of chunks the server holds per fingerprint before any upload (a body cut by a reload):
   * index → the bytes held. chunk/exist lists them in `partialChunks`; chunk upload accepts `offset`.
   */
  prePartial = new Map<string, Map<number, Uint8Array>>();
  readonly requests: RecordedRequest[] = [];
  readonly uploadedChunks: number[] = [];
  /** Every chunk request body the fake read: index, offset and body length. */
  readonly chunkBodies: Array<{ index: number; offset: number; bytes: number; digestHeader: string | undefined }> = [];
  interceptor: Interceptor | undefined;
  /** Content the tenant already stores, by fingerprint: second upload succeeds for these with a valid proof. */
  readonly tenantContent = new Map<string, Uint8Array>();
  /** The tenant's blocked extensions as canBeUploadType answers them (its `blocked` from these too). */
  blockedExtensions: string[] = [];
  /** Files that exist by name, for fileVersion/check: name → file id (default: none). */
  readonly existingFiles = new Map<string, string>();
  /** Ids of existing files the caller may not give new content (a share narrowed to preview or download). */
  readonly notEditable = new Set<string>();
  /** Findings of multipleFile/check by file name (default: nothing found); checkFileSensitiveOrLock reads its sensitive/locked. */
  readonly checkFindings = new Map<string, Partial<MultipleFileCheckResult>>();
  /** Proofs the fake expected, in order (for asserting the client's HMAC). */
  readonly expectedProofs: string[] = [];
  /** Files created, by the client key that created them (protocol.ts, "Finished uploads"). */
  readonly finished = new Map<string, string>();
  /** Batch items the fake refuses, by file name: the error code it answers (default: created). */
  readonly batchRefusals = new Map<string, string>();
  /** Files created by batch requests, by client key: their bytes. */
  readonly batchFiles = new Map<string, Uint8Array>();
  /** False: the batch route answers 404 like a backend without it. */
  batchRoute = true;
  /** Paths whose next answer is lost after the fake acted on the request (a reload, a cut connection). */
  readonly loseNextAnswer = new Set<string>();
  private challenges = new Map<string, { nonce: string; ranges: ByteRange[]; fingerprint: string }>();
  private sessions = new Map<string, { fingerprint: string; stored: Set<number>; count: number; partial: Map<number, Uint8Array> }>();

  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    init.signal?.throwIfAborted();
    const url = new URL(input, 'http://fake.local');
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req: RecordedRequest = { path: url.pathname, method: init.method ?? 'GET', headers, query: url.searchParams, credentials: init.credentials };
    if (typeof init.body === 'string') req.body = JSON.parse(init.body) as unknown;
    this.requests.push(req);
    const intercepted = await this.interceptor?.(req, this.requests.length - 1);
    // Like a real fetch: a request aborted while it was held up never completes.
    init.signal?.throwIfAborted();
    if (intercepted === 'network-error') throw new TypeError('Failed to fetch');
    if (intercepted) return intercepted;
    const answer = await this.answer(url, init, req, headers);
    if (this.loseNextAnswer.delete(url.pathname)) throw new TypeError('Failed to fetch');
    return answer;
  };

  private async answer(url: URL, init: RequestInit, req: RecordedRequest, headers: Record<string, string>): Promise<Response> {
    if (headers[HEADER_PLATFORM.toLowerCase()] !== 'web' || !headers[HEADER_NETWORK_ENV.toLowerCase()]) {
      return json(400, { errorCode: ERRORS.VALIDATION.code, errorMessage: 'missing client headers' });
    }
    switch (url.pathname) {
      case API.uploadConfig:
        return json(200, { data: { chunkSize: this.chunkSize, maxFileSize: this.maxFileSize } });
      case API.chunkExist:
        return this.exist(JSON.parse(String(init.body)) as ChunkExistRequest);
      case API.chunkUpload:
        return this.chunk(url.searchParams, headers, init.body as Blob);
      case API.multipleFileCheck:
        return this.check(req.body as MultipleFileCheckRequest);
      case API.canBeUploadType: {
        const { names } = req.body as { names: string[] };
        const ext = (n: string) => (n.lastIndexOf('.') > 0 ? n.slice(n.lastIndexOf('.') + 1).toLowerCase() : '');
        const blocked = names.filter((n) => this.blockedExtensions.includes(ext(n))).map((name) => ({ name, extension: ext(name) }));
        const allowed = names.filter((n) => !this.blockedExtensions.includes(ext(n)));
        return json(200, { data: { allowed, blocked, blockedExtensions: this.blockedExtensions } });
      }
      case API.checkFileSensitiveOrLock: {
        const { items } = req.body as MultipleFileCheckRequest;
        return json(200, { data: items.map((c) => ({ key: c.key, sensitive: false, locked: false, ...pick(this.checkFindings.get(c.name)) })) });
      }
      case API.fileVersionCheck: {
        const { name, versionOf } = req.body as { name: string; versionOf?: string };
        if (versionOf !== undefined) {
          // By id (上传新版本): wherever it sits under whatever name; unknown to the caller → 404.
          const known = [...this.existingFiles].find(([, id]) => id === versionOf);
          if (!known) return json(404, { errorCode: ERRORS.NOT_FOUND.code, errorMessage: ERRORS.NOT_FOUND.message });
          return json(200, { data: { exists: true, fileId: versionOf, suggestedName: known[0], locked: false, replaceable: !this.notEditable.has(versionOf) } });
        }
        const fileId = this.existingFiles.get(name) ?? null;
        return json(200, { data: { exists: fileId !== null, fileId, suggestedName: name, locked: false, replaceable: true } });
      }
      case API.secondUpload:
        return this.secondUpload(req.body as SecondUploadRequest);
      case API.relativePathDirCreate: {
        const { relativePaths } = req.body as RelativePathDirCreateRequest;
        return json(200, { data: { dirs: Object.fromEntries(relativePaths.map((p) => [p, `dir-${p}`])) } });
      }
      case API.batchUpload:
        return this.batch(init.body as Blob);
      case API.keepOnUpload:
      case API.giveUpUpload:
        return json(200, { data: null });
      case API.chunkMerge: {
        const { uploadId, name, clientKey } = JSON.parse(String(init.body)) as { uploadId: string; name: string; clientKey?: string };
        const earlier = clientKey && this.finished.get(clientKey);
        if (earlier) return json(200, { data: { id: earlier, name } });
        const session = this.sessions.get(uploadId);
        if (!session || session.stored.size !== session.count) return json(400, { errorCode: ERRORS.CHUNKS_MISSING.code, errorMessage: ERRORS.CHUNKS_MISSING.message });
        this.sessions.delete(uploadId);
        if (clientKey) this.finished.set(clientKey, `file-${uploadId}`);
        return json(200, { data: { id: `file-${uploadId}`, name } });
      }
      default:
        return json(404, {});
    }
  }

  private exist(body: ChunkExistRequest): Response {
    // Streaming sessions (files of PIPELINE_MIN_BYTES and more) are the real server's business.
    if (!body.fingerprint || !body.chunkDigests) return json(400, { errorCode: ERRORS.VALIDATION.code, errorMessage: 'streaming sessions not faked' });
    // Like the real server (upload-session-opener.ts): only its own chunk size.
    if (body.chunkSize !== this.chunkSize) return json(400, { errorCode: ERRORS.CHUNK_SIZE_CHANGED.code, errorMessage: ERRORS.CHUNK_SIZE_CHANGED.message });
    const { fingerprint, chunkDigests } = body;
    const earlier = body.clientKey && this.finished.get(body.clientKey);
    if (earlier) {
      const all = chunkDigests.map((_, i) => i);
      return json(200, { data: { uploadId: '', chunkSize: body.chunkSize, chunkCount: all.length, existingChunks: all, finished: { fileId: earlier } } });
    }
    const uploadId = `up-${fingerprint.slice(0, 8)}`;
    const session = this.sessions.get(uploadId) ?? {
      fingerprint,
      stored: new Set(this.preStored.get(fingerprint)),
      count: chunkDigests.length,
      partial: new Map(this.prePartial.get(fingerprint)),
    };
    this.sessions.set(uploadId, session);
    const partialChunks = [...session.partial].filter(([i]) => !session.stored.has(i)).map(([index, held]) => ({ index, bytes: held.length }));
    return json(200, { data: { uploadId, chunkSize: body.chunkSize, chunkCount: session.count, existingChunks: [...session.stored], partialChunks } });
  }

  private async chunk(query: URLSearchParams, headers: Record<string, string>, body: Blob): Promise<Response> {
    const session = this.sessions.get(query.get('uploadId') ?? '');
    if (!session) return json(400, { errorCode: ERRORS.UPLOAD_NOT_FOUND.code, errorMessage: ERRORS.UPLOAD_NOT_FOUND.message });
    const index = Number(query.get('index'));
    const offset = Number(query.get('offset') ?? 0);
    const received = new Uint8Array(await body.arrayBuffer());
    this.chunkBodies.push({ index, offset, bytes: received.length, digestHeader: headers[HEADER_CHUNK_SHA256.toLowerCase()] });
    const held = session.partial.get(index);
    if (offset > 0 && (!held || held.length < offset)) {
      return json(400, { errorCode: ERRORS.CHUNK_OFFSET_MISMATCH.code, errorMessage: ERRORS.CHUNK_OFFSET_MISMATCH.message });
    }
    const bytes = offset > 0 ? new Uint8Array(Buffer.concat([held!.subarray(0, offset), received])) : received;
    session.partial.delete(index);
    const digest = chunkDigestHex(bytes);
    if (headers['content-type'] !== 'application/octet-stream' || digest !== headers[HEADER_CHUNK_SHA256.toLowerCase()]) {
      return json(400, { errorCode: ERRORS.CHUNK_DIGEST_MISMATCH.code, errorMessage: ERRORS.CHUNK_DIGEST_MISMATCH.message });
    }
    session.stored.add(index);
    this.uploadedChunks.push(index);
    return json(200, { data: { index, size: bytes.length } });
  }

  private check(body: MultipleFileCheckRequest): Response {
    const results = body.items.map((c) => ({
      key: c.key, blockedType: false, sensitive: false, locked: false, exists: false, existingFileId: null, suggestedName: c.name, overQuota: false,
      ...this.checkFindings.get(c.name),
    }));
    return json(200, { data: { results } });
  }

  /** Challenge every claim alike; create only for stored content with the right proof. */
  private secondUpload(body: SecondUploadRequest): Response {
    // Probes come only before streaming sessions, which this fake does not play.
    if (body.fingerprint === undefined) return json(200, { data: { status: 'unknown' } });
    const { fingerprint } = body;
    if (!body.proof) {
      const challengeId = `ch-${this.challenges.size + 1}`;
      const nonce = randomBytes(32).toString('hex');
      const third = Math.floor(body.size / 3);
      const ranges = body.size === 0 ? [] : [{ start: 0, end: Math.min(body.size, 100) }, { start: third, end: Math.min(body.size, third + 5000) }, { start: Math.max(0, body.size - 7), end: body.size }];
      this.challenges.set(challengeId, { nonce, ranges, fingerprint });
      return json(200, { data: { status: 'challenge', challengeId, nonce, ranges } });
    }
    const challenge = this.challenges.get(body.proof.challengeId);
    this.challenges.delete(body.proof.challengeId);
    const content = this.tenantContent.get(fingerprint);
    if (!challenge || !content || challenge.fingerprint !== fingerprint) return json(200, { data: { status: 'unknown' } });
    const hmac = createHmac('sha256', Buffer.from(challenge.nonce, 'hex'));
    for (const r of challenge.ranges) hmac.update(content.subarray(r.start, r.end));
    const expected = hmac.digest('hex');
    this.expectedProofs.push(expected);
    if (expected !== body.proof.hmac) return json(200, { data: { status: 'unknown' } });
    return json(200, { data: { status: 'created', file: { id: `instant-${fingerprint.slice(0, 8)}`, name: body.name } } });
  }

  /** The small-file batch (common/transfer/batch-upload.ts), parsed from its framed body. */
  private async batch(body: Blob): Promise<Response> {
    if (!this.batchRoute) return json(404, { errorCode: ERRORS.ROUTE_NOT_FOUND.code, errorMessage: ERRORS.ROUTE_NOT_FOUND.message });
    const raw = Buffer.from(await body.arrayBuffer());
    const length = raw.readUInt32BE(0);
    const { items } = JSON.parse(raw.subarray(4, 4 + length).toString('utf8')) as BatchUploadManifest;
    let offset = 4 + length;
    const results: BatchUploadResult[] = items.map((item) => {
      const bytes = raw.subarray(offset, offset + item.size);
      offset += item.size;
      const earlier = this.finished.get(item.clientKey);
      if (earlier) return { clientKey: item.clientKey, status: 'created', file: { id: earlier, name: item.name } as FileEntry };
      const code = this.batchRefusals.get(item.name) ?? (chunkDigestHex(bytes) !== item.digest ? ERRORS.CHUNK_DIGEST_MISMATCH.code : null);
      if (code) return { clientKey: item.clientKey, status: 'refused', errorCode: code, errorMessage: `refused: ${code}` };
      this.finished.set(item.clientKey, `file-b-${item.clientKey}`);
      this.batchFiles.set(item.clientKey, new Uint8Array(bytes));
      return { clientKey: item.clientKey, status: 'created', file: { id: `file-b-${item.clientKey}`, name: item.name } as FileEntry };
    });
    if (offset !== raw.length) return json(400, { errorCode: ERRORS.CHUNK_SIZE_MISMATCH.code, errorMessage: 'body length' });
    return json(200, { data: { results } });
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }
}
