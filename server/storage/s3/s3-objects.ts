/**
 * The few S3 calls the object store makes, on one client with Ceph 16's settings and the store's
 * timeout, each failure turned into what the rest of the server understands: a key the store lacks is
 * an error with `code` 'ENOENT' (as a missing file on disk), a store that is down, slow or answering
 * 5xx is AppError STORE_UNAVAILABLE (coded, 中文 for the UI). Every call takes an AbortSignal.
 */
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ERRORS } from '../../../common/api/errors';
import { AppError } from '../../http/app-error';
import type { S3Location } from './s3-location';

/** S3's limit of keys per DeleteObjects call. */
const DELETE_BATCH = 1000;

/** Errors of the network or of an overloaded/broken server: the store is unavailable, not the request wrong. */
const UNAVAILABLE_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'SlowDown', 'ServiceUnavailable', 'InternalError', 'ThrottlingException']);
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** An error with `code` 'ENOENT', as fs gives for a missing file (callers treat both alike). */
export function missingKey(key: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`object store: no object ${key}`);
  err.code = 'ENOENT';
  return err;
}

export function isMissing(err: unknown): boolean {
  const e = err as SdkError;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.code === 'ENOENT' || e?.$metadata?.httpStatusCode === 404;
}

/** What a failed call means to the server (see the module comment). Abort errors of our own signals pass as they are. */
export function storeError(err: unknown, key: string, signal?: AbortSignal): unknown {
  if (err instanceof AppError) return err;
  if (signal?.aborted) return signal.reason ?? err;
  if (isMissing(err)) return missingKey(key);
  const e = err as SdkError;
  const status = e?.$metadata?.httpStatusCode;
  if (UNAVAILABLE_NAMES.has(e?.name ?? '') || UNAVAILABLE_CODES.has(e?.code ?? '') || (status !== undefined && status >= 500) || e?.name === 'AbortError') {
    return new AppError(ERRORS.STORE_UNAVAILABLE, `${ERRORS.STORE_UNAVAILABLE.message}（${e?.name ?? e?.code ?? status ?? 'error'}）`);
  }
  // Not an answer at all (a socket error the SDK passed on as it was).
  if (status === undefined && e?.code && /^E[A-Z]+$/.test(e.code)) return new AppError(ERRORS.STORE_UNAVAILABLE);
  return err;
}

export interface ListedObject {
  key: string;
  size: number;
  /** LastModified, ms since the epoch (0 when the store gave none). */
  modified: number;
}

/**
 * One bucket (and key prefix) of an S3-compatible server. Keys given to and returned by these methods
 * are relative to the prefix.
 */
export class S3Objects {
  readonly client: S3Client;

  constructor(readonly location: S3Location) {
    this.client = new S3Client({
      region: location.region,
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      forcePathStyle: location.pathStyle,
      ...(location.credentials ? { credentials: location.credentials } : {}),
      // Ceph 16 refuses a streamed PutObject with the SDK's default trailing checksum (411) and
      // answers CompleteMultipartUpload without one; integrity is ours anyway (every chunk's SHA-256).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A body we stream cannot be sent twice: retries are the client engine's, after a coded error.
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: Math.min(location.timeoutMs, 5_000),
        // Idle time of the socket (nothing sent or received), not the whole request's; an error, not
        // only the warning this SDK release gives by default (a stuck store held requests forever).
        requestTimeout: location.timeoutMs,
        throwOnRequestTimeout: true,
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
      },
    });
  }

  private full(key: string): string {
    return this.location.prefix + key;
  }

  private async call<T>(key: string, signal: AbortSignal | undefined, run: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    // The store's own deadline for calls that move no stream of ours (a stuck server answers nothing at all).
    const deadline = AbortSignal.timeout(this.location.timeoutMs * 3);
    const abortSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      return await run(abortSignal);
    } catch (err) {
      if (deadline.aborted && !signal?.aborted) throw new AppError(ERRORS.STORE_UNAVAILABLE);
      throw storeError(err, key, signal);
    }
  }

  /** Checks the bucket answers with these credentials (startup: a bad BLOB_STORE fails loudly). */
  async check(signal?: AbortSignal): Promise<void> {
    await this.call('', signal, (abortSignal) => this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }), { abortSignal }));
  }

  /**
   * Streams `body` of exactly `length` bytes into `key`; resolves once the store acknowledged it (its
   * durable write). Not bounded by the store's deadline: the body arrives as fast as its sender sends
   * it (the socket's idle timeout still applies). Abort with `signal` to leave nothing written.
   */
  async put(key: string, body: Readable | Uint8Array, length: number, signal?: AbortSignal): Promise<void> {
    const input: PutObjectCommandInput = { Bucket: this.location.bucket, Key: this.full(key), Body: body, ContentLength: length };
    try {
      await this.client.send(new PutObjectCommand(input), signal ? { abortSignal: signal } : {});
    } catch (err) {
      throw storeError(err, key, signal);
    }
  }

  /** A body of unknown length (server-made content): lib-storage's Upload, a multipart upload past 5 MiB. */
  upload(key: string, body: Readable): Upload {
    return new Upload({ client: this.client, params: { Bucket: this.location.bucket, Key: this.full(key), Body: body }, queueSize: 2, partSize: 5 * 1024 * 1024, leavePartsOnError: false });
  }

  /** The object's bytes (`end` inclusive); a missing key fails with ENOENT. Lives as long as its reader reads. */
  async get(key: string, range?: { start: number; end: number }, signal?: AbortSignal): Promise<Readable> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.full(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        signal ? { abortSignal: signal } : {},
      );
      return out.Body as Readable;
    } catch (err) {
      throw storeError(err, key, signal);
    }
  }

  /** Server-side copy (no byte passes through this process); objects up to 5 GiB. */
  async copy(from: string, to: string, signal?: AbortSignal): Promise<void> {
    await this.call(from, signal, (abortSignal) =>
      this.client.send(new CopyObjectCommand({ Bucket: this.location.bucket, Key: this.full(to), CopySource: `${this.location.bucket}/${encodeURIComponent(this.full(from)).replace(/%2F/g, '/')}` }), { abortSignal }),
    );
  }

  /** Every object under `prefix` (relative keys), page by page. */
  async *list(prefix: string, signal?: AbortSignal): AsyncGenerator<ListedObject> {
    let token: string | undefined;
    do {
      const page = await this.call(prefix, signal, (abortSignal) =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.full(prefix), ContinuationToken: token }), { abortSignal }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield { key: o.Key.slice(this.location.prefix.length), size: o.Size ?? 0, modified: o.LastModified?.getTime() ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** One level under `prefix`: the objects there and the "folders" (common prefixes, relative, without the '/'). */
  async *listLevel(prefix: string, signal?: AbortSignal): AsyncGenerator<{ object?: string; folder?: string }> {
    let token: string | undefined;
    const base = this.full(prefix);
    do {
      const page = await this.call(prefix, signal, (abortSignal) =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: base, Delimiter: '/', ContinuationToken: token }), { abortSignal }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield { object: o.Key.slice(base.length) };
      for (const p of page.CommonPrefixes ?? []) if (p.Prefix) yield { folder: p.Prefix.slice(base.length).replace(/\/$/, '') };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Whether anything is stored under `prefix`. */
  async any(prefix: string, signal?: AbortSignal): Promise<boolean> {
    const page = await this.call(prefix, signal, (abortSignal) =>
      this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.full(prefix), MaxKeys: 1 }), { abortSignal }),
    );
    return (page.KeyCount ?? page.Contents?.length ?? 0) > 0;
  }

  /** Deletes the keys (missing ones are no error), 1000 per call. */
  async delete(keys: readonly string[], signal?: AbortSignal): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const out = await this.call(batch[0]!, signal, (abortSignal) =>
        this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch.map((k) => ({ Key: this.full(k) })), Quiet: true } }), { abortSignal }),
      );
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new AppError(ERRORS.STORE_UNAVAILABLE, `${ERRORS.STORE_UNAVAILABLE.message}（删除失败：${failed[0]!.Code ?? ''}）`);
    }
  }

  /** Deletes every object under `prefix`. */
  async deletePrefix(prefix: string, signal?: AbortSignal): Promise<void> {
    const keys: string[] = [];
    for await (const o of this.list(prefix, signal)) keys.push(o.key);
    await this.delete(keys, signal);
  }

  /** Aborts the incomplete multipart uploads under this server's prefix started before `olderThan`; how many. */
  async abortMultipartUploads(olderThan: number, signal?: AbortSignal): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.call('', signal, (abortSignal) =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.location.bucket, Prefix: this.location.prefix || undefined, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }), { abortSignal }),
      );
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || (u.Initiated && u.Initiated.getTime() >= olderThan)) continue;
        const { Key, UploadId } = u;
        await this.call(Key, signal, (abortSignal) => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.location.bucket, Key, UploadId }), { abortSignal }));
        aborted++;
      }
      if (!page.IsTruncated) return aborted;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/** Runs `work` over `items`, at most `limit` at a time; the first failure fails the whole (after the running ones end). */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | null = null;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (err) {
        failure ??= { err };
      }
    }
  });
  await Promise.all(runners);
  if (failure) throw (failure as { err: unknown }).err;
}
