/**
 * A share link's visitor: the calls and reads of the link pages (public; the server answers 401 when
 * the tenant wants a session). Through the link pages' own client (../link-api.ts) and their own query
 * client, never the account's: a visit belongs to no account, and its key is a bearer secret that is
 * never written to disk. The opened link's folder reads: ./link-folder.ts (loaded with that view).
 */
import { LINKS } from '../../../common/api/endpoints/links';
import type { RequestOptions } from '../api-client';
import { linkApi } from '../link-api';

type Quiet = Pick<RequestOptions, 'quietCodes' | 'onError'>;

/** What the page shows before the code (common/api/sharing.ts LinkSummary). */
export const linkSummary = (token: string, opts: Quiet = {}) => linkApi.call(LINKS.summary, { token }, opts);
/** Asked at boot by the link pages' entry, before React renders; the page's own call takes the answer. */
export const prefetchLinkSummary = (token: string) => linkApi.prefetchCall(LINKS.summary, { token });
export const openLink = (token: string, code?: string, opts: Quiet = {}) => linkApi.call(LINKS.open, { token, ...(code ? { code } : {}) }, opts);
export const listLink = (visit: string, parentId: string | null, cursor: string | null, signal?: AbortSignal) =>
  linkApi.call(LINKS.list, { visit, parentId, cursor, pageSize: 200 }, { signal });
export const downloadFromLink = (visit: string, ids: string[], opts: Quiet = {}) => linkApi.call(LINKS.download, { visit, ids }, opts);
export const saveFromLink = (visit: string, ids: string[], targetParentId: string | null) => linkApi.call(LINKS.save, { visit, ids, targetParentId });

