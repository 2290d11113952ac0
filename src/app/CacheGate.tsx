import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { PageLoading } from '../components/PageLoading';
import { queryClient, syncOnlineFlagAtStart } from '../lib/data/query-client';
import { watchBrowserOnline } from '../lib/data/reachability';
import { cachePersistence } from '../lib/data/session';

/**
 * The data layer for the whole app: the query client, with the public cache partition (brand, logo)
 * loaded from IndexedDB before anything renders, so an offline start shows what the last visit saw.
 */
export function CacheGate({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    syncOnlineFlagAtStart();
    // A broken IndexedDB (private mode quirks, quota) costs the offline cache, never the app.
    cachePersistence.start().catch((e: unknown) => console.warn('offline cache unavailable', e)).finally(() => startTransition(() => setReady(true)));
    return watchBrowserOnline();
  }, []);
  return <QueryClientProvider client={queryClient}>{ready ? children : <PageLoading />}</QueryClientProvider>;
}
