import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { Category, FileSize, ClientKey, ConflictPolicy, IfMatch, NameString, NullableId, Sha256Hex, VersionOf } from '../schemas';
import type { InterceptedFile } from '../sharing';
import type {
  CanBeUploadTypeResponse,
  FileVersionCheckResponse,
  MultipleFileCheckResponse,
  RelativePathDirCreateResponse,
  SensitiveOrLockResult,
  UnprocessedUpload,
} from '../../transfer/checks';
import type { SecondUploadResponse } from '../../transfer/second-upload';

/**
 * What a client asks before it sends a file's bytes: instant second upload (rules in
 * common/transfer/second-upload.ts), the pre-upload checks and the user's decisions on held items
 * (common/transfer/checks.ts). Spec §7 names these without their full paths; ours sit under /api/v2/file/.
 */

/** Most items one check call takes (the check service refuses more). */
export const CHECK_BATCH_MAX = 1000;

const Key = Type.String({ minLength: 1, maxLength: 256 });

export const SecondUploadBody = Type.Object({
  /** Omitted: a probe (second-upload.ts). */
  fingerprint: Type.Optional(Sha256Hex),
  size: FileSize,
  name: NameString,
  parentId: NullableId,
  category: Category,
  onConflict: Type.Optional(ConflictPolicy),
  /** As in ChunkMergeRequest (endpoints/uploads.ts). */
  ifMatch: Type.Optional(IfMatch),
  /** The answer to the server's challenge (SecondUploadProof). */
  proof: Type.Optional(Type.Object({ challengeId: Type.String({ maxLength: 64 }), hmac: Type.String({ maxLength: 128 }) })),
  /** The client's id for the item (protocol.ts, "Finished uploads"): a repeat answers the file it created. */
  clientKey: Type.Optional(ClientKey),
  /** 上传新版本 by id (VersionOf, common/api/schemas.ts). */
  versionOf: Type.Optional(VersionOf),
});
export type SecondUploadRequest = Static<typeof SecondUploadBody>;

export const CanBeUploadTypeBody = Type.Object({ names: Type.Array(NameString, { maxItems: CHECK_BATCH_MAX }) });
export type CanBeUploadTypeRequest = Static<typeof CanBeUploadTypeBody>;

export const UploadCandidateSchema = Type.Object({
  /** Client's key for this file in the batch (echoed back). */
  key: Key,
  name: NameString,
  size: FileSize,
  parentId: NullableId,
  category: Category,
  /**
   * 上传新版本 by id (VersionOf, common/api/schemas.ts): the item is judged against that file (its lock,
   * whether the caller may give it new content), not by its name in parentId.
   */
  versionOf: Type.Optional(VersionOf),
});
export type UploadCandidate = Static<typeof UploadCandidateSchema>;
/** checkFileSensitiveOrLock and multipleFile/check: a batch of files about to be uploaded. */
export const CandidatesBody = Type.Object({ items: Type.Array(UploadCandidateSchema, { maxItems: CHECK_BATCH_MAX }) });
export type SensitiveOrLockRequest = Static<typeof CandidatesBody>;
export type MultipleFileCheckRequest = Static<typeof CandidatesBody>;

/**
 * By name in a folder (parentId null: the caller's root), or with versionOf by the file's id wherever it
 * sits (上传新版本 of a file shared at its owner's top level): an id the caller cannot see is 404.
 */
export const FileVersionCheckBody = Type.Object({ name: NameString, parentId: NullableId, category: Category, versionOf: Type.Optional(VersionOf) });
export type FileVersionCheckRequest = Static<typeof FileVersionCheckBody>;

export const RelativePathDirCreateBody = Type.Object({
  parentId: NullableId,
  category: Category,
  /** Folder paths relative to parentId, '/'-separated, e.g. ['photos', 'photos/2024']. */
  relativePaths: Type.Array(Type.String({ maxLength: 4096 }), { maxItems: CHECK_BATCH_MAX }),
});
export type RelativePathDirCreateRequest = Static<typeof RelativePathDirCreateBody>;

/** The user's decision on a held item: upload it as a new version, or under a free name. */
export const UploadDecisionQuery = Type.Object({ key: Key, policy: Type.Enum(['newVersion', 'rename']) });
export type UploadDecision = Static<typeof UploadDecisionQuery>;
export const GiveUpUploadQuery = Type.Object({ key: Key });
/** Default: held uploads; `exchange`: the files the exchange area intercepted (sharing.ts). */
export const UnProcessListQuery = Type.Object({ scope: Type.Optional(Type.Enum(['upload', 'exchange'])) });

const member = 'member' as const;

export const PRE_UPLOAD = {
  /** Instant upload with proof of ownership (second-upload.ts); a probe without fingerprint. */
  secondUpload: endpoint({ method: 'POST', path: API.secondUpload, access: member, action: 'file.upload', body: SecondUploadBody, response: data<SecondUploadResponse>() }),
  canBeUploadType: endpoint({ method: 'POST', path: API.canBeUploadType, access: member, action: null, body: CanBeUploadTypeBody, response: data<CanBeUploadTypeResponse>() }),
  checkFileSensitiveOrLock: endpoint({
    method: 'POST',
    path: API.checkFileSensitiveOrLock,
    access: member,
    action: null,
    body: CandidatesBody,
    response: data<SensitiveOrLockResult[]>(),
  }),
  fileVersionCheck: endpoint({ method: 'POST', path: API.fileVersionCheck, access: member, action: null, body: FileVersionCheckBody, response: data<FileVersionCheckResponse>() }),
  multipleFileCheck: endpoint({ method: 'POST', path: API.multipleFileCheck, access: member, action: null, body: CandidatesBody, response: data<MultipleFileCheckResponse>() }),
  /** Creates the folders of a folder upload (existing ones are reused). */
  relativePathDirCreate: endpoint({
    method: 'POST',
    path: API.relativePathDirCreate,
    access: member,
    action: 'file.mkdir',
    body: RelativePathDirCreateBody,
    response: data<RelativePathDirCreateResponse>(),
  }),
  /**
   * GET, as the spec says. keepOnUpload and giveUpUpload change state, so the server requires the
   * client's platform header on them: a cross-site page cannot add a custom header without a CORS
   * preflight, which is refused.
   */
  keepOnUpload: endpoint({ method: 'GET', path: API.keepOnUpload, access: member, action: 'file.uploadDecision', query: UploadDecisionQuery, response: data<UploadDecision>() }),
  giveUpUpload: endpoint({ method: 'GET', path: API.giveUpUpload, access: member, action: 'file.uploadDecision', query: GiveUpUploadQuery, response: data<{ key: string }>() }),
  /** Held uploads; with `scope=exchange` the files the exchange area intercepted. */
  unProcessList: endpoint({
    method: 'GET',
    path: API.unProcessList,
    access: member,
    action: null,
    query: UnProcessListQuery,
    response: data<UnprocessedUpload[] | InterceptedFile[]>(),
  }),
};
