/**
 * Opening the signed-in account's cache partition: with a saved account (this browser's last
 * confirmed one) its partition is loaded at once, so the app opens offline; without one, the server
 * is asked who is signed in first. Then the account's boot data (menu, permissions) is asked for,
 * before any page has rendered and subscribed to it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { savedAccount } from './account';
import { fetchUserDetailsQuery, prefetchAccountBootData, QUERY_KEYS } from './queries';
import { cachePersistence, confirmAccount } from './session';

export async function openAccount(client: QueryClient): Promise<void> {
  const saved = savedAccount();
  if (saved) {
    await cachePersistence.useAccount(saved);
    // Who is signed in, asked again at every start (one small GET): the saved answer opens the app at
    // once and offline, but it is as old as the last save — a name or quota changed elsewhere (an admin,
    // another device), or another account signed in meanwhile (AccountCheck), would otherwise show
    // only once it turned stale. Offline this fails quietly and the saved answer stays.
    void client.prefetchQuery({ queryKey: QUERY_KEYS.userDetails, queryFn: ({ signal }) => fetchUserDetailsQuery(signal), staleTime: 0 });
  } else {
    const user = await fetchUserDetailsQuery();
    await confirmAccount({ tenantId: user.tenantId, userId: user.id });
    client.setQueryData(QUERY_KEYS.userDetails, user);
  }
  prefetchAccountBootData(client);
}
