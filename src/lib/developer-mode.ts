/**
 * The developer switch: tools for testers that users never see (the transfer panel's 导出队列, whose
 * file `npm run replay` plays back — docs/operations.md). Opening any page with `?devtools=1` turns it
 * on for this browser (kept in the app's storage, so it survives reloads), `?devtools=0` turns it off.
 */
import { getAppStorage } from './storage';

const KEY = 'developerTools';
export const DEVTOOLS_QUERY_PARAM = 'devtools';

/** Whether the developer tools are on; reads (and keeps) a `?devtools=` switch in the address first. */
export function developerMode(): boolean {
  const storage = getAppStorage();
  if (typeof window !== 'undefined') {
    const asked = new URLSearchParams(window.location.search).get(DEVTOOLS_QUERY_PARAM);
    if (asked === '1') storage.set(KEY, true);
    else if (asked === '0') storage.remove(KEY);
  }
  return storage.get<boolean>(KEY) === true;
}
