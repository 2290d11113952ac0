/**
 * An in-memory stand-in for the upload endpoints, used as the engine's injected fetch. It checks what
 * the real server checks (headers, digests) and records every request, so tests can assert on them.
 */
import { createHash } from 'node:crypto';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../../common/api/client-env';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import { HEADER_CHUNK_SHA256, MIN_CHUNK_SIZE } from '../../../common/transfer/constants';
import type { ChunkExistRequest } from '../../../common/transfer/protocol';

export interface RecordedRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  query: URLSearchParams;
  credentials: RequestCredentials | undefined;
}

/** Lets a test replace the answer to one request; return undefined to let the fake answer. */
type InterceptResult = Response | 'network-error' | undefined;
export type Interceptor = (req: RecordedRequest, callIndex: number) => InterceptResult | Promise<InterceptResult>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export class FakeUploadServer {
  chunkSize = MIN_CHUNK_SIZE;
  maxFileSize = 1 << 30;
  /** Chunks already stored per fingerprint before any upload (e.g. from an earlier session). */
  preStored = new Map<string, Set<number>>();
  readonly requests: RecordedRequest[] = [];
  readonly uploadedChunks: number[] = [];
  interceptor: Interceptor | undefined;
  private sessions = new Map<string, { fingerprint: string; stored: Set<number>; count: number }>();

  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    init.signal?.throwIfAborted();
    const url = new URL(input, 'http://fake.local');
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req: RecordedRequest = { path: url.pathname, method: init.method ?? 'GET', headers, query: url.searchParams, credentials: init.credentials };
    this.requests.push(req);
    const intercepted = await this.interceptor?.(req, this.requests.length - 1);
    // Like a real fetch: a request aborted while it was held up never completes.
    init.signal?.throwIfAborted();
    if (intercepted === 'network-error') throw new TypeError('Failed to fetch');
    if (intercepted) return intercepted;
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
      case API.chunkMerge: {
        const { uploadId, name } = JSON.parse(String(init.body)) as { uploadId: string; name: string };
        const session = this.sessions.get(uploadId);
        if (!session || session.stored.size !== session.count) return json(400, { errorCode: ERRORS.CHUNKS_MISSING.code, errorMessage: ERRORS.CHUNKS_MISSING.message });
        return json(200, { data: { id: `file-${uploadId}`, name } });
      }
      default:
        return json(404, {});
    }
  };

  private exist(body: ChunkExistRequest): Response {
    const uploadId = `up-${body.fingerprint.slice(0, 8)}`;
    let session = this.sessions.get(uploadId);
    if (!session) {
      session = { fingerprint: body.fingerprint, stored: new Set(this.preStored.get(body.fingerprint)), count: body.chunkDigests.length };
      this.sessions.set(uploadId, session);
    }
    return json(200, { data: { uploadId, chunkSize: body.chunkSize, chunkCount: session.count, existingChunks: [...session.stored] } });
  }

  private async chunk(query: URLSearchParams, headers: Record<string, string>, body: Blob): Promise<Response> {
    const session = this.sessions.get(query.get('uploadId') ?? '');
    if (!session) return json(400, { errorCode: ERRORS.UPLOAD_NOT_FOUND.code, errorMessage: ERRORS.UPLOAD_NOT_FOUND.message });
    const index = Number(query.get('index'));
    const bytes = new Uint8Array(await body.arrayBuffer());
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (headers['content-type'] !== 'application/octet-stream' || digest !== headers[HEADER_CHUNK_SHA256.toLowerCase()]) {
      return json(400, { errorCode: ERRORS.CHUNK_DIGEST_MISMATCH.code, errorMessage: ERRORS.CHUNK_DIGEST_MISMATCH.message });
    }
    session.stored.add(index);
    this.uploadedChunks.push(index);
    return json(200, { data: { index, size: bytes.length } });
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }
}
