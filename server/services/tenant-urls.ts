import { API } from '../../common/api/paths';
import type { TenantsTable } from '../db/schema';

/** Changes whenever a picture does: part of the URLs, so cached pictures (browser, service worker) are never stale. */
export function tenantVersion(t: Pick<TenantsTable, 'updated_at' | 'created_at'>): number {
  return Number(t.updated_at ?? t.created_at);
}

export function logoUrlOf(t: TenantsTable): string {
  return t.logo_key ? `${API.logo}?t=${encodeURIComponent(t.id)}&v=${tenantVersion(t)}` : '';
}

export function backgroundUrlOf(t: TenantsTable): string {
  return t.background_key ? `${API.loginBackground}?t=${encodeURIComponent(t.id)}&v=${tenantVersion(t)}` : '';
}
