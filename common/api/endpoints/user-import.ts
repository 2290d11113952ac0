import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import type { ImportFormat, ImportPreview, ImportResult } from '../org-types';
import { API } from '../paths';
import { IdString } from '../schemas';

/** 批量新增 (admin only): template, preview of an uploaded sheet, import, result (rules in ../org-types.ts). */

export const DEFAULT_IMPORT_FORMAT: ImportFormat = 'xlsx';
const Format = Type.Unsafe<ImportFormat>(Type.Enum(['xlsx', 'csv'], { default: DEFAULT_IMPORT_FORMAT }));

/**
 * Imports the batch's good rows in ONE transaction, all checked again (the tenant may have changed
 * since the preview); `password` (AES-encrypted) is the initial password of every imported account,
 * which each must change at first login.
 */
export const ImportCommitBody = Type.Object({ batchId: IdString, password: Type.String({ maxLength: 512 }) });
export type ImportCommitRequest = Static<typeof ImportCommitBody>;

const admin = 'admin' as const;

export const USER_IMPORT = {
  /** The empty sheet to fill in. */
  template: endpoint({ method: 'GET', path: API.userImportTemplate, access: admin, action: null, query: Type.Object({ format: Type.Optional(Format) }), response: bytes }),
  /** The sheet as the raw body (at most IMPORT_MAX_BYTES), `?name=` its file name: every row checked, nothing written. */
  preview: endpoint({
    method: 'POST',
    path: API.userImportPreview,
    access: admin,
    action: null,
    encoding: 'raw',
    query: Type.Object({ name: Type.Optional(Type.String({ maxLength: 255 })) }),
    response: data<ImportPreview>(),
  }),
  commit: endpoint({ method: 'POST', path: API.userImportCommit, access: admin, action: 'user.batchImport', body: ImportCommitBody, response: data<ImportResult>() }),
  /** The batch's rows with their verdicts, as a sheet. */
  result: endpoint({
    method: 'GET',
    path: API.userImportResult,
    access: admin,
    action: null,
    query: Type.Object({ batchId: IdString, format: Type.Optional(Format) }),
    response: bytes,
  }),
};
