/**
 * 设备密码's calls (common/api/endpoints/device-passwords.ts). The list is an ordinary cached read of the
 * account's partition (shown offline as last seen); the password itself is only in the create answer,
 * which is never cached: the card holds it in its state until the dialog closes.
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { DevicePasswordCreated, DevicePasswordList } from '../../../common/api/device-passwords';
import { DEVICE_PASSWORDS } from '../../../common/api/endpoints/device-passwords';
import { api } from '../api';

export const DEVICE_PASSWORDS_KEY = ['account', 'devicePasswords'] as const;

/** Always asked again on mount: a script (npm run dav:password) or another device may have added one, and last use moves. */
export function useDevicePasswordsQuery(): UseQueryResult<DevicePasswordList> {
  return useQuery({
    queryKey: DEVICE_PASSWORDS_KEY,
    queryFn: ({ signal }) => api.call(DEVICE_PASSWORDS.list, undefined, { signal }),
    refetchOnMount: 'always',
  });
}

/** A new device password; the list in the cache gains it (without the password). */
export async function createDevicePassword(client: QueryClient, name: string): Promise<DevicePasswordCreated> {
  const created = await api.call(DEVICE_PASSWORDS.create, { name });
  const { password: _shownOnce, ...info } = created;
  client.setQueryData<DevicePasswordList>(DEVICE_PASSWORDS_KEY, (list) => list && { ...list, items: [info, ...list.items.filter((i) => i.id !== info.id)] });
  return created;
}

/** Revokes one: its next WebDAV request is refused. The list in the cache loses it. */
export async function revokeDevicePassword(client: QueryClient, id: string): Promise<void> {
  await api.call(DEVICE_PASSWORDS.revoke, { id });
  client.setQueryData<DevicePasswordList>(DEVICE_PASSWORDS_KEY, (list) => list && { ...list, items: list.items.filter((i) => i.id !== id) });
}

/** The address to type into a WebDAV client: the server's public address, or this page's origin. */
export function davAddressOf(list: Pick<DevicePasswordList, 'davUrl'>, origin = window.location.origin): string {
  return /^https?:\/\//.test(list.davUrl) ? list.davUrl : `${origin}${list.davUrl}`;
}
