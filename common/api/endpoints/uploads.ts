import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { Category, FileSize, ClientKey, ConflictPolicy, IdString, IfMatch, NameString, NullableId, Sha256Hex, VersionOf } from '../schemas';
import type { FileEntry } from '../types';
import { MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from '../../transfer/chunk-policy';
import type { ChunkExistResponse, ChunkRangeUploadResponse, ChunkUploadResponse, UploadConfig } from '../../transfer/protocol';
import type { BatchUploadResponse } from '../../transfer/batch-upload';

/**
 * The chunked upload protocol (the steps, sessions, partial chunks and range uploads are described in
 * common/transfer/protocol.ts; spec §7 names chunk/exist, the rest is ours).
 */

/**
 * Why the file is uploaded, where that changes what the server lets through. Absent: an ordinary
 * upload. 'clientInstaller': an installer for 系统配置 → 客户端版本 (docs/desktop.md) — an admin who may
 * set client releases (the right of clientVersion/save) may upload it although the tenant blocks its type
 * or its bytes are a program; anyone else is refused with INSTALLER_UPLOAD_FORBIDDEN. Every other rule
 * (quota, names, folder, sensitive words, locks) is unchanged. Sent with chunk/exist, each chunk upload
 * (the first chunk's bytes are judged) and merge; an optional field, so the spec §7 encodings hold.
 */
export const UploadPurpose = Type.Literal('clientInstaller');
export type UploadPurposeCode = Static<typeof UploadPurpose>;

/** Hex chunk digests (chunk-digest.ts), in order. The upper bound keeps the JSON small; the service checks the exact count. */
const ChunkDigests = Type.Array(Sha256Hex, { minItems: 1, maxItems: 100_000 });

/**
 * Opens (or finds) the upload session for this user + fingerprint + size. `fingerprint` and
 * `chunkDigests`: both (an announced session) or neither (a streaming session; the service checks).
 */
export const ChunkExistBody = Type.Object({
  /** Hex SHA-256 over the concatenated chunk digests. Omitted (with chunkDigests): a streaming session. */
  fingerprint: Type.Optional(Sha256Hex),
  /** Streaming sessions only: the session to continue. */
  uploadId: Type.Optional(IdString),
  size: FileSize,
  chunkSize: Type.Integer({ minimum: MIN_CHUNK_SIZE, maximum: MAX_CHUNK_SIZE }),
  /** One per chunk; length = chunkCount(size, chunkSize). Omitted: streaming. */
  chunkDigests: Type.Optional(ChunkDigests),
  name: NameString,
  parentId: NullableId,
  category: Category,
  /** The client's id for the item (protocol.ts, "Finished uploads"). */
  clientKey: Type.Optional(ClientKey),
  purpose: Type.Optional(UploadPurpose),
  /** 上传新版本 by id (VersionOf, common/api/schemas.ts): refused here, before a byte is sent, when the caller may not give it new content. */
  versionOf: Type.Optional(VersionOf),
});
export type ChunkExistRequest = Static<typeof ChunkExistBody>;

/** Completes an upload once every chunk is stored. */
export const ChunkMergeBody = Type.Object({
  uploadId: IdString,
  name: NameString,
  parentId: NullableId,
  category: Category,
  /** Default 'fail' (ConflictPolicy, protocol.ts). */
  onConflict: Type.Optional(ConflictPolicy),
  /**
   * With 'newVersion': replace only that file, and only while its content still has that
   * fingerprint (optimistic concurrency, the desktop sync's guard against overwriting a change made
   * elsewhere). A file of that name that is another file, or holds other content, answers
   * SYNC_CHANGED and nothing changes; no file of that name → the upload creates one.
   */
  ifMatch: Type.Optional(IfMatch),
  /**
   * Streaming sessions: the digests and fingerprint the client computed meanwhile, both or neither
   * (neither: the server's recorded digests make the fingerprint; see "Streaming sessions"). Ignored otherwise.
   */
  fingerprint: Type.Optional(Sha256Hex),
  chunkDigests: Type.Optional(ChunkDigests),
  /** The client's id for the item (see "Finished uploads"). */
  clientKey: Type.Optional(ClientKey),
  purpose: Type.Optional(UploadPurpose),
  /** 上传新版本 by id (VersionOf, common/api/schemas.ts): the content replaces that file's, wherever it sits. */
  versionOf: Type.Optional(VersionOf),
});
export type ChunkMergeRequest = Static<typeof ChunkMergeBody>;

/** The query of a chunk upload; its body is the chunk's raw bytes (header X-Chunk-Sha256). */
export const ChunkUploadQuerySchema = Type.Object({
  uploadId: IdString,
  index: Type.Integer({ minimum: 0 }),
  /** Where in the chunk the body starts (default 0); > 0 only for a chunk listed in `partialChunks`. */
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  /** A range upload: the body carries chunks `index`..`through` (see "Range uploads"). */
  through: Type.Optional(Type.Integer({ minimum: 0 })),
  /** As in chunk/exist: the first chunk's bytes are judged with it. */
  purpose: Type.Optional(UploadPurpose),
});
export type ChunkUploadQuery = Static<typeof ChunkUploadQuerySchema>;

const member = 'member' as const;

export const UPLOADS = {
  /** Ours: the chunk size and limits the server announces; fetched before hashing. */
  config: endpoint({ method: 'GET', path: API.uploadConfig, access: member, action: null, response: data<UploadConfig>() }),
  /** Spec §7 (path ours): a step of an upload, recorded at its merge. */
  chunkExist: endpoint({ method: 'POST', path: API.chunkExist, access: member, action: null, body: ChunkExistBody, response: data<ChunkExistResponse>() }),
  /**
   * Ours: `POST ?uploadId=&index=[&offset=][&through=]`, the raw bytes of one chunk (or of a range of
   * chunks) as the body, read by the handler as it streams.
   */
  chunkUpload: endpoint({
    method: 'POST',
    path: API.chunkUpload,
    access: member,
    action: null,
    encoding: 'raw',
    query: ChunkUploadQuerySchema,
    response: data<ChunkUploadResponse | ChunkRangeUploadResponse>(),
  }),
  chunkMerge: endpoint({ method: 'POST', path: API.chunkMerge, access: member, action: 'file.upload', body: ChunkMergeBody, response: data<FileEntry>() }),
  /**
   * Ours: many small files in one request, committed in one transaction. A framed raw body (manifest
   * length, BatchUploadManifest, the files' bytes), read as it streams: common/transfer/batch-upload.ts.
   */
  batchUpload: endpoint({ method: 'POST', path: API.batchUpload, access: member, action: 'file.upload', encoding: 'raw', response: data<BatchUploadResponse>() }),
};
