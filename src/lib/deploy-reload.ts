/**
 * A page chunk that fails to load while the network is up usually means a new deployment removed
 * it: the page reloads once, cleanly, onto the new version. Once per minute at most, so a chunk that
 * is really broken shows the retry screen instead of reloading forever.
 */
const KEY = 'drive-chunk-reload-at';
const MIN_INTERVAL_MS = 60_000;

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  online: boolean;
  now: number;
  reload: () => void;
}

/** Reloads (and returns true) when this failure should lead to a clean reload. */
export function reloadOnceForNewDeployment(deps: ReloadDeps): boolean {
  if (!deps.online) return false;
  const last = Number(deps.storage.getItem(KEY) ?? 0);
  if (deps.now - last < MIN_INTERVAL_MS) return false;
  deps.storage.setItem(KEY, String(deps.now));
  deps.reload();
  return true;
}
