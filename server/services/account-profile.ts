import type { AccountProfile } from '../../common/api/endpoints/user-admin';
import type { UsersTable } from '../db/schema';

/**
 * A person's profile after its rules (common/org/account.ts, the quota list), ready to store: what the
 * admin's add and edit checked (user-admin-service.ts) and each good row of an import (import/import-rows.ts).
 */
export interface CheckedProfile extends AccountProfile {
  /** accountKey(website): what the per-tenant unique index compares. */
  key: string;
}

/** The profile as the users table's columns (an edit sets `role` apart: its change must keep a tenant admin). */
export function profileColumns(p: CheckedProfile): Pick<UsersTable, 'username' | 'username_key' | 'nick_name' | 'phone' | 'department_id' | 'quota' | 'outer_login' | 'role'> {
  return {
    username: p.website,
    username_key: p.key,
    nick_name: p.nickName,
    phone: p.phone,
    department_id: p.departmentId,
    quota: p.quota,
    outer_login: p.outerLogin ? 1 : 0,
    role: p.role,
  };
}

/** The row of a new account: nothing used yet, and its initial password must be changed at first login. */
export function newAccountRow(tenantId: string, id: string, p: CheckedProfile, passwordHash: string, now: number): UsersTable {
  return {
    id,
    tenant_id: tenantId,
    ...profileColumns(p),
    avatar: '',
    password_hash: passwordHash,
    must_change_password: 1,
    password_changed_at: null,
    used_size: 0,
    created_at: now,
    locked: 0,
    locked_reason: null,
    deleted_at: null,
  };
}
