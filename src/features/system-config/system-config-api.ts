import { API } from '../../../common/api/paths';
import { DICTIONARIES, type DictItemUpdateRequest } from '../../../common/api/endpoints/dictionaries';
import type { TenantInfo, TenantSwitches, TenantUpdateRequest } from '../../../common/api/types';
import { api } from '../../lib/api';

export const tenantInfo = (signal?: AbortSignal) => api.get<TenantInfo>(API.tenantInfo, { signal });
export const updateTenant = (req: TenantUpdateRequest) => api.post<TenantInfo>(API.tenantUpdate, req);
/** GETs as the spec has them; the client's platform header (sent on every call) is what the server requires. */
export const resetLogo = () => api.get<TenantInfo>(API.tenantResetLogo);
export const resetBackground = () => api.get<TenantInfo>(API.tenantResetBackground);
export const dictionaries = (signal?: AbortSignal) => api.call(DICTIONARIES.list, {}, { signal });
export const updateDictItem = (req: DictItemUpdateRequest) => api.call(DICTIONARIES.itemUpdate, req);

const SWITCH_PATHS: Record<keyof TenantSwitches, string> = {
  gesture: API.switchGesture,
  keyCreate: API.switchKeyCreate,
  publicDownLoad: API.switchPublicDownload,
  exchangeSwitch: API.switchExchange,
  syncTime: API.modifySyncTime,
};

/** The admin switches are form-encoded POSTs (spec §7). */
export function setSwitch(key: keyof TenantSwitches, value: boolean | number): Promise<TenantSwitches> {
  const fields: Record<string, string> = key === 'syncTime' ? { syncTime: String(value) } : { value: value ? '1' : '0' };
  return api.postForm<TenantSwitches>(SWITCH_PATHS[key], fields);
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
