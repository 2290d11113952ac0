import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { linkEntryOf } from '../../common/api/sharing';
import type { ServedLinkPage } from '../../common/link-page/served';
import { AntdFrameContext } from '../components/antd-frame';
import { plainLazy } from '../components/plain-lazy';
import { PageLoading } from '../components/PageLoading';
// The page's own module, not the feature's index (which also brings the in-app /openShareLink page).
import { ShareLinkPage } from '../features/share-link/ShareLinkPage';

/** antd with the app's theme, for what uses it (the opened link, the status page): not on the code page's way. */
export const LinkAntdRoot = plainLazy(() => import('./link-antd-root'), (m) => m.LinkAntdRoot);
const DownloadExceededPage = plainLazy(() => import('../features/status'), (m) => m.DownloadExceededPage);

/** A path the link pages do not show (a 401's /login?redirect=, /error): the app proper, loaded anew. */
function ToTheApp() {
  useEffect(() => window.location.replace(window.location.href), []);
  return <PageLoading />;
}

/**
 * The pages an outsider opens from a share link (src/link-main.tsx): the link's page, its phone
 * layout, and /downloadExceeded. Routed by the same rule that made the server send link.html
 * (linkEntryOf); the calls' navigations (DEP10213 → /downloadExceeded) stay here. The code page is
 * plain HTML and CSS; antd loads with what needs it. `served`: the page the server drew into link.html.
 */
export function LinkApp({ served = null }: { served?: ServedLinkPage | null }) {
  const [location] = useLocation();
  const entry = linkEntryOf(location);
  let page;
  if (!entry) page = <ToTheApp />;
  else if (entry.page === 'downloadExceeded') {
    page = (
      <LinkAntdRoot>
        <DownloadExceededPage />
      </LinkAntdRoot>
    );
  } else {
    // What the server drew is this token's only (servedLinkPageOf): a page the visitor moves to starts afresh.
    const drawn = served && served.token === entry.token ? served : null;
    page = <ShareLinkPage key={entry.token} token={entry.token} compact={entry.page === 'downLoadM'} served={drawn} />;
  }
  return <AntdFrameContext.Provider value={LinkAntdRoot}>{page}</AntdFrameContext.Provider>;
}
