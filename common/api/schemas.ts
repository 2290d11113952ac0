import { Type } from 'typebox';
import { CLIENT_KEY_PATTERN } from '../transfer/protocol';
import { FILE_LIST_MAX_PAGE_SIZE, ROLES } from './types';

/**
 * Schema pieces shared by endpoint declarations (TypeBox: each is JSON Schema and a type). The server
 * validates with them before any service runs, so bad input is refused with 400 REQ-2001. Names get
 * only a length bound here: their content rules belong to checkFileName, which answers with the
 * specific coded error.
 */
export const IdString = Type.String({ minLength: 1, maxLength: 64 });
export const NullableId = Type.Union([IdString, Type.Null()]);
export const Category = Type.Integer({ minimum: 1, maximum: 1000 });
export const NameString = Type.String({ maxLength: 1024 });
export const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$' });
/** The client's id for an upload item (protocol.ts, "Finished uploads"). */
export const ClientKey = Type.String({ pattern: CLIENT_KEY_PATTERN });
export const ConflictPolicy = Type.Enum(['fail', 'newVersion', 'rename']);
/** IfMatch (common/transfer/protocol.ts): replace only this file at this content. */
export const IfMatch = Type.Object({ fileId: IdString, fingerprint: Type.Union([Sha256Hex, Type.Null()]) });
/**
 * 上传新版本 by id (ours, optional; chunk/exist, chunk/merge, second upload, fileVersion/check and the
 * check items): the file the upload becomes the next version of, addressed by its id wherever it sits —
 * in the caller's files, a space, a folder of another's reached through a share, or at its owner's top
 * level (where parentId null would name the caller's own root). The server resolves it through the one
 * access decision (a share only with 编辑; preview and download grants: FORBIDDEN; another tenant's or an
 * unknown id: 404) and takes name, parentId and category from the file, not from the request. Merge and
 * second upload: only with onConflict 'newVersion' (or none); anything else is VALIDATION.
 */
export const VersionOf = IdString;
/** A group space id or 'public' (PUBLIC_SPACE_ID); null/absent = personal files. */
export const SpaceId = NullableId;

/**
 * A folder by where it is, to list or to create in: parentId, or null for the root of the category
 * (1.. for personal categories; ignored, send 1, when spaceId is set) or of the space (a group space's
 * id or PUBLIC_SPACE_ID; absent/null = the caller's own categories).
 */
export const FolderPlace = { parentId: NullableId, category: Category, spaceId: Type.Optional(SpaceId) };

/** A file's size in bytes. */
export const FileSize = Type.Integer({ minimum: 0 });
/** Batch calls: 1..BATCH_MAX_IDS ids (common/api/types.ts). */
export const IdList = Type.Array(IdString, { minItems: 1, maxItems: 1000 });
/** Per-id conflict decisions (ConflictDecision). */
export const Decisions = Type.Record(Type.String(), Type.Enum(['rename', 'overwrite', 'skip']), { maxProperties: 1000 });
/** A body that must be `{}` (calls that take no input but are POSTs). */
export const EmptyBody = Type.Object({}, { additionalProperties: false });
/** A role code (RoleCode: 'admin' | 'member'), from the list of roles that can be given. */
export const RoleCodeSchema = Type.Enum(ROLES.map((r) => r.code), { type: 'string' });
/** `{ id }`: the most common body and query. */
export const IdBody = Type.Object({ id: IdString });
/** `:id` of a path that names one file or version (downloads, previews, thumbnails). */
export const IdParams = Type.Object({ id: IdString });
/** A keyset page: the opaque cursor from the previous page's `nextCursor` (null or absent = the first page). */
export const NullableCursor = Type.Union([Type.String({ maxLength: 2048 }), Type.Null()]);
/** Entries per page: 1..FILE_LIST_MAX_PAGE_SIZE (default FILE_LIST_DEFAULT_PAGE_SIZE). */
export const PageSize = Type.Integer({ minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE });
