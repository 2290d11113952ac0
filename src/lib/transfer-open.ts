/**
 * A link that opens the transfer list over its page (`?transfers=open`): a held upload's message leads
 * to the folder it was for with the list open, where the upload is renamed or removed (issue 44).
 * The shell opens it — the side panel on a wide screen, the bottom sheet on a phone — and drops the
 * parameter, so a reload or a link copied afterwards does not open it again.
 */
import { useEffect } from 'react';
import { useSearch } from 'wouter';

export const TRANSFERS_QUERY_PARAM = 'transfers';

/** `url` (an app path, maybe with a query) with the transfer list open. */
export function withTransfersOpen(url: string): string {
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.set(TRANSFERS_QUERY_PARAM, 'open');
  return `${path}?${params.toString()}`;
}

/** Calls `open` when the address asks for the transfer list (and `enabled`), then takes the ask out of the address. */
export function useTransfersOpenRequest(enabled: boolean, open: () => void): void {
  const search = useSearch();
  useEffect(() => {
    if (!enabled) return;
    const params = new URLSearchParams(search);
    if (params.get(TRANSFERS_QUERY_PARAM) !== 'open') return;
    open();
    params.delete(TRANSFERS_QUERY_PARAM);
    const rest = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }, [enabled, search, open]);
}
