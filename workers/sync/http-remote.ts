/**
 * The sync's RemoteApi over the real server. Uploads are the transfer engine's own attempt
 * (workers/engine/upload-runner.ts: digests, second upload with proof of possession, chunk/exist
 * resume, pipelined streaming for large files, chunks, merge) with the Node hash pool and chunk
 * transport (workers/node/), its session and digests kept in the journal so a restart continues an
 * interrupted upload instead of sending it again. Listing, checks and guarded deletes are the
 * sync's own calls (common/api/paths.ts syncContent, syncCheck, syncRemove); folders, moves and
 * renames the file API's. Small files go whole in one batch (batch-upload-call.ts); the listing is
 * read an item at a time (listing-stream.ts).
 *
 * Every failure comes out as a RemoteError of the kind the executor reacts to (ports.ts).
 */
import type { AnyEndpoint, BodyOf, DataOf } from '../../common/api/endpoint';
import { ACCOUNT } from '../../common/api/endpoints/account';
import { FILE_STATES } from '../../common/api/endpoints/file-states';
import { FILES } from '../../common/api/endpoints/files';
import { SYNC } from '../../common/api/endpoints/sync';
import { ERRORS } from '../../common/api/errors';
import { ApiCallError, classifyFailure } from '../../common/api/failure';
import { downloadUrl } from '../../common/api/paths';
import {
  FILE_CATEGORY,
  FILE_LIST_MAX_PAGE_SIZE,
  type FileEntry,
  type FileListResponse,
  type SynEntry,
  type UserDetails,
} from '../../common/api/types';
import type { EngineConfig } from '../../common/transfer/engine-api';
import type { UploadConfig } from '../../common/transfer/protocol';
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { chunkSizeForFile } from '../../common/transfer/chunk-policy';
import { DEFAULT_CHUNK_CONCURRENCY } from '../../common/transfer/constants';
import { newUploadRecord } from '../queue/records';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { ConcurrencyLimit } from '../engine/adaptive-pool';
import { createApiClient, NetworkError, RateLimitedError, type ApiClient } from '../engine/api-client';
import { abortableSleep, backoffDelayMs } from '../engine/backoff';
import { UploadError } from '../engine/failure-policy';
import { MESSAGES } from '../engine/messages';
import { parseBody, StallError, withStallDetection, type ChunkTransport } from '../engine/transport';
import { clientHeaders } from '../../common/api/client-env';
import { runUpload } from '../engine/upload-runner';
import { createUploadConfigCache } from '../engine/upload-config-cache';
import { SourceReadError, createSha256Hex, type HashChunk } from '../hash/sha256';
import type { CookieFetch } from '../node/cookie-fetch';
import { unreachableMessage } from '../node/network-failure';
import type { RemoteEntry } from './model';
import { RemoteError, type BatchFile, type BatchFileOutcome, type FileDigests, type PolicyVerdict, type RemoteApi, type RemoteListing, type UploadSession, type UploadTarget } from './ports';
import { pathKey as nameKeyOf } from './names';
import type { TokenBucket } from './throttle';
import { sendBatch } from './batch-upload-call';
import { readListing } from './listing-stream';

export interface HttpRemoteOptions {
  config: EngineConfig;
  jar: CookieFetch;
  transport: ChunkTransport;
  hashChunk: HashChunk;
  hashConcurrency: number;
  /** Download bandwidth (the upload limit sits in the transport). */
  download?: TokenBucket;
  /** Attempts of one call on transient failures before the pass gives up (the pass retries later). */
  attempts?: number;
  now?: () => number;
  /** A new version of the sync list (syncTime) came with a listing. */
  onSyncTime?(minutes: number): void;
}

const SYNCED = FILE_CATEGORY.synced;
const STALL_MS = 30_000;

/** Maps an API failure to what the sync does about it. */
export function remoteErrorOf(error: unknown): unknown {
  if (error instanceof RemoteError) return error;
  if (error instanceof NetworkError || error instanceof StallError) return new RemoteError(MESSAGES.networkRetrying, 'transient');
  if (error instanceof RateLimitedError) return new RemoteError(MESSAGES.serverBusy, 'transient');
  if (error instanceof SourceReadError) return new RemoteError(`无法读取本地文件：${error.message}`, 'conflict');
  if (error instanceof UploadError) {
    // The file changed while it was read, or the session fell apart: the next pass plans again.
    if (error.decision.message === MESSAGES.fileChanged || error.decision.action === 'retry') return new RemoteError(error.message, 'conflict');
    return new RemoteError(error.message, 'refused');
  }
  if (error instanceof ApiCallError) {
    // A 409 is not a §8 kind the classifier names: its code is read from the body.
    const code = error.errorCode || bodyCode(error.body);
    const message = bodyMessage(error.body) || error.message;
    switch (error.failure.kind) {
      case 'unauthorized':
      case 'sessionTerminated':
        return new RemoteError(MESSAGES.sessionExpired, 'unauthorized', code || null);
      case 'serverError':
      case 'downloadExceeded':
        return new RemoteError(MESSAGES.serverRetrying, 'transient', code || null);
      case 'ignored':
        if (error.status === 409 && code === ERRORS.SYNC_CHANGED.code) return new RemoteError(message, 'conflict', code);
        if (error.status === 404) return new RemoteError(ERRORS.NOT_FOUND.message, 'notFound', code || null);
        if (error.status >= 500 || error.status === 408 || error.status === 429) return new RemoteError(MESSAGES.serverRetrying, 'transient');
        return new RemoteError(bodyMessage(error.body) || `HTTP ${error.status}`, 'refused', code || null);
      case 'badRequest':
        // The desktop window's 手势密码 lock is up (the sync shares its session): the pass waits and is asked again, nothing fails.
        if (code === ERRORS.GESTURE_LOCKED.code) return new RemoteError(message, 'transient', code);
        if (code === ERRORS.NAME_CONFLICT.code || code === ERRORS.CONFLICT_DECISION_REQUIRED.code || code === ERRORS.UPLOAD_NOT_FOUND.code) {
          return new RemoteError(message, 'conflict', code);
        }
        if (code === ERRORS.NOT_FOUND.code) return new RemoteError(message, 'notFound', code);
        return new RemoteError(message, 'refused', code);
    }
  }
  return error;
}




function bodyCode(body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return typeof b.errorCode === 'string' ? b.errorCode : '';
}

function bodyMessage(body: unknown): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return typeof b.errorMessage === 'string' ? b.errorMessage : '';
}

export class HttpRemote implements RemoteApi {
  private readonly api: ApiClient;
  private readonly uploadConfig;
  private readonly sha256 = createSha256Hex();
  private readonly attempts: number;
  private readonly now: () => number;
  private accountName: string | null = null;

  constructor(private readonly options: HttpRemoteOptions) {
    const transport = withStallDetection(options.transport, STALL_MS);
    this.api = createApiClient(options.jar.fetch, () => options.config, transport);
    this.now = options.now ?? Date.now;
    this.uploadConfig = createUploadConfigCache(this.api, this.now);
    this.attempts = options.attempts ?? 3;
  }

  /** Runs `call`, again after a backoff while it fails transiently; maps the final failure. */
  private async call<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        // No answer at all: the message says which server and what failed (refused, DNS, TLS, timeout).
        const mapped = error instanceof NetworkError ? new RemoteError(unreachableMessage(this.options.config.apiBase, error.cause ?? error), 'transient', 'UNREACHABLE') : remoteErrorOf(error);
        if (mapped instanceof RemoteError && mapped.kind === 'transient' && attempt < this.attempts) {
          await abortableSleep(backoffDelayMs(attempt, Math.random), signal);
          continue;
        }
        throw mapped;
      }
    }
  }

  private post<T>(path: string, body: unknown, signal: AbortSignal): Promise<T> {
    return this.call(signal, () => this.api.postJson<T>(path, body, signal));
  }

  /** A declared JSON POST (common/api/endpoints): path from the entry, body and answer typed by it. */
  private postEntry<E extends AnyEndpoint>(entry: E, body: BodyOf<E>, signal: AbortSignal): Promise<DataOf<E>> {
    if (entry.method !== 'POST' || entry.encoding !== 'json') throw new Error(`${entry.path}: not a JSON POST`);
    return this.post<DataOf<E>>(entry.path, body, signal);
  }

  async account(): Promise<string> {
    if (this.accountName === null) {
      const signal = AbortSignal.timeout(30_000);
      const me = await this.post<UserDetails>(ACCOUNT.userDetails.path, {}, signal);
      this.accountName = me.website || me.nickName || '用户';
    }
    return this.accountName;
  }

  /** Every live child of a folder (all pages). */
  private async children(parentId: string | null, signal: AbortSignal): Promise<FileEntry[]> {
    const out: FileEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: FileListResponse = await this.postEntry(FILES.list, { parentId, category: SYNCED, cursor, pageSize: FILE_LIST_MAX_PAGE_SIZE }, signal);
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    return out;
  }

  private async childNamed(parentId: string | null, name: string, signal: AbortSignal): Promise<FileEntry | undefined> {
    const key = nameKeyOf(name);
    return (await this.children(parentId, signal)).find((e) => nameKeyOf(e.name) === key);
  }

  private async mkdirIn(parentId: string | null, name: string, signal: AbortSignal): Promise<FileEntry> {
    try {
      return await this.postEntry(FILES.mkdir, { parentId, category: SYNCED, name }, signal);
    } catch (error) {
      if (!(error instanceof RemoteError) || error.code !== ERRORS.NAME_CONFLICT.code) throw error;
      const existing = await this.childNamed(parentId, name, signal);
      if (existing?.isDir) return existing;
      throw error;
    }
  }

  async ensureRoot(path: string, signal: AbortSignal): Promise<string> {
    let parentId: string | null = null;
    const parts = path.split('/').filter(Boolean);
    if (parts.length === 0) throw new RemoteError('请指定同步文件中的一个文件夹', 'refused');
    for (const part of parts) parentId = (await this.mkdirIn(parentId, part, signal)).id;
    return parentId!;
  }

  async listTree(rootId: string, token: string | null, signal: AbortSignal): Promise<RemoteListing> {
    return this.call(signal, async () => {
      const res = await this.fetch(SYNC.content.path, { rootId, token }, signal);
      // Folders by id: their path, and their id string (shared by every child as its parentId).
      const folders = new Map<string, { path: string; id: string }>([[rootId, { path: '', id: rootId }]]);
      const entries: RemoteEntry[] = [];
      let orphans = 0;
      const add = (e: SynEntry) => {
        const parent = folders.get(e.parentId);
        // Parents come first in one snapshot: an entry whose folder was not listed means a listing
        // with a hole, and what is in the hole would look deleted. Not used (below).
        if (parent === undefined) {
          orphans++;
          return;
        }
        const path = parent.path === '' ? e.name : `${parent.path}/${e.name}`;
        if (e.isDir) folders.set(e.id, { path, id: e.id });
        entries.push({ path, id: e.id, parentId: parent.id, isDir: e.isDir, size: e.size, updatedAt: e.updatedAt, fingerprint: e.fingerprint, lockedByOther: e.lockedByOther });
      };
      const head = await readListing(res, add, signal);
      if (orphans > 0) throw new NetworkError(new Error(`incomplete listing: ${orphans} entries without their folder`));
      this.options.onSyncTime?.(head.syncTime);
      return { token: head.token, entries: head.unchanged ? null : entries };
    });
  }

  /** A POST whose answer the caller reads itself (non-2xx answers are thrown like the API client's). */
  private async fetch(pathName: string, body: unknown, signal: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await this.options.jar.fetch(this.options.config.apiBase + pathName, {
        method: 'POST',
        headers: { ...clientHeaders(this.options.config.platform, this.options.config.networkEnv), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new NetworkError(error);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      const parsed = parseBody(text);
      throw new ApiCallError(res.status, classifyFailure(res.status, parsed), parsed);
    }
    return res;
  }

  async mkdir(parentId: string, name: string, signal: AbortSignal): Promise<RemoteEntry> {
    const e = await this.mkdirIn(parentId, name, signal);
    return { path: e.name, id: e.id, parentId, isDir: true, size: 0, updatedAt: e.updatedAt, fingerprint: null };
  }

  async upload(source: Blob, target: UploadTarget, digests: FileDigests | null, session: UploadSession, signal: AbortSignal): Promise<{ id: string; fingerprint: string }> {
    const resume = session.resume;
    const base = newUploadRecord({
      // The client key: kept with the attempt, so a restart after a merge whose answer was lost gets that file back.
      id: resume?.clientKey ?? `sync-${this.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      file: source,
      target: { parentId: target.parentId, category: SYNCED },
      createdAt: this.now(),
      relativePath: null,
      chunkConcurrency: DEFAULT_CHUNK_CONCURRENCY,
    });
    let record: UploadRecord = {
      ...base,
      name: target.name,
      onConflict: target.replace ? 'newVersion' : 'fail',
      ifMatch: target.replace ? { fileId: target.replace.id, fingerprint: target.replace.ifMatch } : null,
      chunkSize: resume?.chunkSize ?? digests?.chunkSize ?? 0,
      chunkDigests: resume?.chunkDigests ?? digests?.chunkDigests ?? null,
      fingerprint: resume?.fingerprint ?? digests?.fingerprint ?? null,
      uploadId: resume?.uploadId ?? null,
      streamingSession: resume?.streamingSession ?? false,
    };
    let confirmed = 0;
    const save = () =>
      session.save({ uploadId: record.uploadId, chunkSize: record.chunkSize, chunkDigests: record.chunkDigests, fingerprint: record.fingerprint, streamingSession: record.streamingSession ?? false, clientKey: record.id });
    await this.call(signal, async () => {
      const limit = new ConcurrencyLimit(DEFAULT_CHUNK_CONCURRENCY, DEFAULT_CHUNK_CONCURRENCY, this.now, () => undefined);
      await runUpload({
        record,
        file: source,
        signal,
        api: this.api,
        sha256: this.sha256,
        uploadConfig: this.uploadConfig,
        hashChunk: this.options.hashChunk,
        hashConcurrency: this.options.hashConcurrency,
        limit,
        sleep: abortableSleep,
        random: Math.random,
        update: async (patch: UploadPatch) => {
          const before = record;
          record = { ...record, ...patch };
          if (patch.bytesDone !== undefined) session.bytesDone(patch.bytesDone);
          if (before.uploadId !== record.uploadId || before.fingerprint !== record.fingerprint || before.streamingSession !== record.streamingSession) await save();
          return record;
        },
        chunkDone: (_index, bytes) => {
          confirmed += bytes;
          session.bytesDone((record.bytesDone ?? 0) + confirmed);
        },
        chunkProgress: () => undefined,
        onHashProgress: () => undefined,
      });
    });
    if (record.state !== 'done' || !record.fileId || !record.fingerprint) throw new RemoteError(MESSAGES.uploadFailed, 'conflict');
    return { id: record.fileId, fingerprint: record.fingerprint };
  }

  async uploadBatch(files: readonly BatchFile[], signal: AbortSignal): Promise<BatchFileOutcome[]> {
    const chunkSize = await this.chunkSize(signal);
    const stamp = `sync-${this.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    return sendBatch(files, chunkSize, stamp, (body, headers) => this.call(signal, () => this.api.sendBytes(UPLOADS.batchUpload, undefined, body, headers, signal)));
  }

  async download(id: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const response = await this.call(signal, async () => {
      let res: Response;
      try {
        res = await this.options.jar.fetch(this.options.config.apiBase + downloadUrl(id), { method: 'GET', headers: {}, signal });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new NetworkError(error);
      }
      if (!res.ok) {
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        throw new ApiCallError(res.status, classifyFailure(res.status, body), body);
      }
      return res;
    });
    const bucket = this.options.download;
    const body = response.body;
    return (async function* () {
      if (!body) return;
      for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
        if (bucket) await bucket.take(part.length, signal);
        yield part;
      }
    })();
  }

  async move(id: string, parentId: string, name: string, signal: AbortSignal): Promise<void> {
    const [current] = (await this.postEntry(FILES.multiList, { ids: [id] }, signal)).items;
    if (!current) throw new RemoteError(ERRORS.NOT_FOUND.message, 'notFound');
    if (current.parentId === parentId) {
      if (current.name !== name) await this.postEntry(FILES.rename, { id, name }, signal);
      return;
    }
    // Renamed first where the new name is free in the old folder (so the move cannot clash on the
    // old name at the target), else moved first and renamed there.
    let renamed = current.name === name;
    if (!renamed) {
      try {
        await this.postEntry(FILES.rename, { id, name }, signal);
        renamed = true;
      } catch (error) {
        if (!(error instanceof RemoteError) || error.kind !== 'conflict') throw error;
      }
    }
    await this.postEntry(FILES.move, { ids: [id], targetParentId: parentId, targetCategory: SYNCED }, signal);
    if (!renamed) await this.postEntry(FILES.rename, { id, name }, signal);
  }

  async remove(items: ReadonlyArray<{ id: string; digest: string }>, signal: AbortSignal): Promise<{ changed: string[] }> {
    const answer = await this.postEntry(SYNC.remove, { items: [...items] }, signal);
    return { changed: answer.changed };
  }

  /** Recycle-bin restore, renaming what meets a taken name; ids purged meanwhile (or not this account's) come back in `missing`. */
  async restore(ids: readonly string[], signal: AbortSignal): Promise<{ missing: string[] }> {
    const send = (batch: readonly string[]) =>
      this.postEntry(FILE_STATES.recycleRestore, { ids: [...batch], decisions: Object.fromEntries(batch.map((id) => [id, 'rename' as const])) }, signal);
    try {
      if (ids.length > 0) await send(ids);
      return { missing: [] };
    } catch (error) {
      if (!(error instanceof RemoteError) || error.kind !== 'notFound' || ids.length === 1) {
        if (error instanceof RemoteError && error.kind === 'notFound') return { missing: [...ids] };
        throw error;
      }
    }
    // One of them is gone: each on its own, to tell which.
    const missing: string[] = [];
    for (const id of ids) {
      try {
        await send([id]);
      } catch (error) {
        if (!(error instanceof RemoteError) || error.kind !== 'notFound') throw error;
        missing.push(id);
      }
    }
    return { missing };
  }

  async check(items: ReadonlyArray<{ key: string; name: string; size: number }>, signal: AbortSignal): Promise<PolicyVerdict[]> {
    return (await this.postEntry(SYNC.check, { items: [...items] }, signal)).results;
  }

  /** The size files are cut and fingerprinted at (chunk-policy.ts): the server's, as the engine uses it. */
  async chunkSize(signal: AbortSignal): Promise<number> {
    const config: UploadConfig = await this.call(signal, () => this.uploadConfig(signal));
    return chunkSizeForFile(config.chunkSize);
  }
}
