/**
 * Account (the login name, `website` of UserDetails), nickname, phone and department-name rules,
 * written once for the add/edit forms, the batch import and the server.
 */
import { PHONE_PATTERN } from '../api/types';

export const ACCOUNT_MIN_LENGTH = 2;
export const ACCOUNT_MAX_LENGTH = 32;
/** Letters, digits, `_`, `.` and `-` (issue 14); compared case-insensitively within a tenant. */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const NICKNAME_MAX_LENGTH = 32;
export const DEPARTMENT_NAME_MAX_LENGTH = 64;

// eslint-disable-next-line no-control-regex -- control characters are exactly what we reject
const INVISIBLE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;

/** The form an account is compared in: accounts are ASCII, so lower case is the whole rule. */
export function accountKey(account: string): string {
  return account.trim().toLowerCase();
}

/** The reason an account is refused, or null. */
export function accountProblem(raw: string): string | null {
  const account = raw.trim();
  if (!account) return '请输入账号';
  if (account.length < ACCOUNT_MIN_LENGTH || account.length > ACCOUNT_MAX_LENGTH) {
    return `账号长度为${ACCOUNT_MIN_LENGTH}-${ACCOUNT_MAX_LENGTH}个字符`;
  }
  if (!ACCOUNT_PATTERN.test(account)) return '账号只能包含字母、数字、下划线、点和中划线';
  return null;
}

/** Nicknames are shown everywhere (address list, pickers): any text without invisible characters. */
export function nicknameProblem(raw: string): string | null {
  const name = raw.trim();
  if (!name) return '请输入昵称';
  if (name.length > NICKNAME_MAX_LENGTH) return `昵称不能超过${NICKNAME_MAX_LENGTH}个字符`;
  if (INVISIBLE_RE.test(name)) return '昵称不能包含控制字符或不可见字符';
  return null;
}

/** Phones are optional; when given, a mainland mobile number (11 digits, 13x-19x). */
export function phoneProblem(raw: string): string | null {
  const phone = raw.trim();
  if (!phone) return null;
  return PHONE_PATTERN.test(phone) ? null : '手机号格式不正确（11位手机号码）';
}

/** Department names: like nicknames, plus `/`, which separates the levels of a department path. */
export function departmentNameProblem(raw: string): string | null {
  const name = raw.normalize('NFC').trim();
  if (!name) return '请输入部门名称';
  if (name.length > DEPARTMENT_NAME_MAX_LENGTH) return `部门名称不能超过${DEPARTMENT_NAME_MAX_LENGTH}个字符`;
  if (INVISIBLE_RE.test(name)) return '部门名称不能包含控制字符或不可见字符';
  if (name.includes('/')) return '部门名称不能包含“/”';
  return null;
}

/** The stored form of a department name (NFC, trimmed); sibling names compare by its lower case. */
export function normalizeDepartmentName(raw: string): string {
  return raw.normalize('NFC').trim();
}
