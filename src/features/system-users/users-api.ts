import { ACCOUNT } from '../../../common/api/endpoints/account';
import { API } from '../../../common/api/paths';
import type {
  ImportFormat,
  ImportPreview,
  ImportResult,
  RoleCode,
  UserListResponse,
  UserRow,
  HandOverFilesResponse,
} from '../../../common/api/types';
import { USER_ADMIN, type UserAddRequest, type UserEditRequest, type UserListRequest } from '../../../common/api/endpoints/user-admin';
import { USER_IMPORT, type ImportCommitRequest } from '../../../common/api/endpoints/user-import';
import { api } from '../../lib/api';

export function listUsers(req: UserListRequest, signal?: AbortSignal): Promise<UserListResponse> {
  return api.call(USER_ADMIN.list, req, { signal });
}

export function getUser(id: string, signal?: AbortSignal): Promise<UserRow> {
  return api.call(USER_ADMIN.get, { id }, { signal });
}

export function addUser(req: UserAddRequest): Promise<UserRow> {
  return api.call(USER_ADMIN.add, req);
}

export function editUser(req: UserEditRequest): Promise<UserRow> {
  return api.call(USER_ADMIN.edit, req);
}

export function deleteUser(id: string, quietCodes?: readonly string[]): Promise<unknown> {
  return api.call(USER_ADMIN.delete, { id }, { quietCodes });
}

export function handOverFiles(fromId: string, toId: string): Promise<HandOverFilesResponse> {
  return api.call(USER_ADMIN.handOverFiles, { fromId, toId });
}

export function setDepartment(ids: string[], departmentId: string): Promise<{ moved: number }> {
  return api.call(USER_ADMIN.setDepartment, { ids, departmentId });
}

export function setLocked(userId: string, locked: boolean): Promise<unknown> {
  return api.call(locked ? ACCOUNT.lock : ACCOUNT.unlock, { userId });
}

export function setRole(userId: string, role: RoleCode): Promise<unknown> {
  return api.call(ACCOUNT.setRoles, { userId, roles: [role] });
}

export function setOuterLogin(userId: string, enabled: boolean): Promise<unknown> {
  return api.call(ACCOUNT.outerLoginSet, { userId, enabled });
}

export function previewImport(file: File, signal?: AbortSignal): Promise<ImportPreview> {
  return api.call(USER_IMPORT.preview, { name: file.name }, { raw: file, signal });
}

export function commitImport(req: ImportCommitRequest): Promise<ImportResult> {
  return api.call(USER_IMPORT.commit, req);
}

export const templateUrl = (format: ImportFormat): string => `${API.userImportTemplate}?format=${format}`;
export const resultUrl = (batchId: string, format: ImportFormat): string => `${API.userImportResult}?batchId=${encodeURIComponent(batchId)}&format=${format}`;
