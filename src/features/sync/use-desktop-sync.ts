import { useEffect, useState } from 'react';
import type { DesktopSyncApi } from '../../../common/desktop/bridge';
import type { SyncStatus } from '../../../common/sync/types';

/** The desktop bridge's sync, when the app runs in the desktop shell (else null: the web has no folder sync). */
export function desktopSync(): DesktopSyncApi | null {
  return typeof window !== 'undefined' && window.desktop?.sync ? window.desktop.sync : null;
}

/**
 * The sync engine's status, live: read once, then every change the desktop sends. The state lives
 * on this computer (the engine's process), not on the server: nothing to cache or revalidate here.
 */
export function useDesktopSyncStatus(): SyncStatus | null {
  const [status, setStatus] = useState<SyncStatus | null>(null);
  useEffect(() => {
    const sync = desktopSync();
    if (!sync) return undefined;
    let live = true;
    const off = sync.onStatus((next) => live && setStatus(next));
    void sync.getStatus().then((first) => live && setStatus((current) => current ?? first));
    return () => {
      live = false;
      off();
    };
  }, []);
  return status;
}
