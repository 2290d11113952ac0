/**
 * Which account's cache partition this browser shows. The pointer is saved (app storage) so a reload
 * without network can open the last account's cached data; it is set once the server has confirmed
 * who is signed in (user details), and forgotten at login, at logout and when the server ends the
 * session — so one account never sees another's cache on a shared machine.
 */
import { getAppStorage } from '../storage';

export interface CacheAccount {
  tenantId: string;
  userId: string;
}

const POINTER_KEY = 'cacheAccount';

export const partitionOf = (a: CacheAccount): string => `account:${a.tenantId}:${a.userId}`;

export function savedAccount(): CacheAccount | null {
  const v = getAppStorage().get<Partial<CacheAccount>>(POINTER_KEY);
  return v && typeof v.tenantId === 'string' && typeof v.userId === 'string' ? { tenantId: v.tenantId, userId: v.userId } : null;
}

export function saveAccount(a: CacheAccount): void {
  getAppStorage().set(POINTER_KEY, a);
}

export function forgetAccount(): void {
  getAppStorage().remove(POINTER_KEY);
}

export const sameAccount = (a: CacheAccount | null, b: CacheAccount | null): boolean =>
  a !== null && b !== null && a.tenantId === b.tenantId && a.userId === b.userId;
