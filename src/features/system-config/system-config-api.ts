import { DICTIONARIES, type DictItemUpdateRequest } from '../../../common/api/endpoints/dictionaries';
import { TENANT, type TenantUpdateRequest } from '../../../common/api/endpoints/tenant';
import type { TenantSwitches } from '../../../common/api/types';
import { api } from '../../lib/api';

export const tenantInfo = (signal?: AbortSignal) => api.call(TENANT.info, {}, { signal });
export const updateTenant = (req: TenantUpdateRequest) => api.call(TENANT.update, req);
/** GETs as the spec has them; the client's platform header (sent on every call) is what the server requires. */
export const resetLogo = () => api.call(TENANT.resetLogo, {});
export const resetBackground = () => api.call(TENANT.resetBackground, {});
export const dictionaries = (signal?: AbortSignal) => api.call(DICTIONARIES.list, {}, { signal });
export const updateDictItem = (req: DictItemUpdateRequest) => api.call(DICTIONARIES.itemUpdate, req);

const SWITCHES = {
  gesture: TENANT.switchGesture,
  keyCreate: TENANT.switchKeyCreate,
  publicDownLoad: TENANT.switchPublicDownload,
  exchangeSwitch: TENANT.switchExchange,
  webdav: TENANT.switchWebdav,
} as const;

/** The admin switches are form-encoded POSTs (spec §7; the entries say so). */
export function setSwitch(key: keyof TenantSwitches, value: boolean | number): Promise<TenantSwitches> {
  if (key === 'syncTime') return api.call(TENANT.modifySyncTime, { syncTime: String(value) });
  if (key === 'gestureIdle') return api.call(TENANT.modifyGestureIdle, { idleTime: Number(value) });
  return api.call(SWITCHES[key], { value: value ? '1' : '0' });
}

/** A picked file as the base64 data URL the update call takes. */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
