import { API } from '../../../common/api/paths';
import type { AccountLockRequest, OuterLoginSetRequest, RoleCode, SetRolesRequest, UserSearchRequest, UserSummary } from '../../../common/api/types';
import { api } from '../../lib/api';

export function searchUsers(keyword: string, signal?: AbortSignal): Promise<UserSummary[]> {
  const body: UserSearchRequest = { keyword: keyword.trim() };
  return api.post<UserSummary[]>(API.userSearch, body, { signal });
}

export function setLocked(userId: string, locked: boolean): Promise<unknown> {
  const body: AccountLockRequest = { userId };
  return api.post<unknown>(locked ? API.accountLock : API.accountUnlock, body);
}

export function setRole(userId: string, role: RoleCode): Promise<unknown> {
  const body: SetRolesRequest = { userId, roles: [role] };
  return api.post<unknown>(API.setRoles, body);
}

export function setOuterLogin(userId: string, enabled: boolean): Promise<unknown> {
  const body: OuterLoginSetRequest = { userId, enabled };
  return api.post<unknown>(API.outerLoginSet, body);
}
