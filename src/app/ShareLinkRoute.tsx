import { useEffect, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { PageLoading } from '../components/PageLoading';
import { lazyPage } from '../components/LazyPage';
import { DEFAULT_HOME_URL, fetchHomeUrl, fetchHomeUrlIfSignedIn } from '../lib/session';

const ShareLinkPage = lazyPage(() => import('../features/share-link'), (m) => m.ShareLinkPage);
const OpenShareLinkPage = lazyPage(() => import('../features/share-link'), (m) => m.OpenShareLinkPage);

/** The token after the page's path (the route is nested: its location is `/<token>`). */
function useToken(): string | null {
  const [location] = useLocation();
  const token = decodeURIComponent(location.replace(/^\//, '').split('/')[0] ?? '');
  return token || null;
}

/**
 * Spec §2: /openShareLink and /shareLink exist only when the configured home is the personal files
 * page. /shareLink is for anyone holding the link: a visitor who is not signed in sees it at once (the
 * server answers 401 when the tenant wants a session, and the app goes to /login?redirect= and comes
 * back, spec §4/§8). /openShareLink opens a link inside the app: it needs a session.
 */
export function ShareLinkRoute({ page }: { title: string; page: 'shareLink' | 'openShareLink' }) {
  const token = useToken();
  const [home, setHome] = useState<string | null | 'anonymous' | 'failed'>(null);
  useEffect(() => {
    let alive = true;
    // The page's chunk loads while the session is asked about, not after (a visitor's first load);
    // a failure here is left to the lazy page, which retries and shows its own screen.
    import('../features/share-link').catch(() => undefined);
    const ask = page === 'shareLink' ? fetchHomeUrlIfSignedIn().then((url) => url ?? 'anonymous') : fetchHomeUrl();
    ask.then(
      (url) => alive && setHome(url),
      () => alive && setHome('failed'),
    );
    return () => {
      alive = false;
    };
  }, [page]);
  if (home === null || home === 'failed') return <PageLoading />;
  if (home !== 'anonymous' && home.split('?')[0] !== DEFAULT_HOME_URL) return <Redirect to="/error" replace />;
  if (page === 'openShareLink') return <OpenShareLinkPage token={token} />;
  if (!token) return <OpenShareLinkPage token={null} target="shareLink" />;
  return <ShareLinkPage token={token} />;
}

/** /downLoadM/<token>: the link's page laid out for phones (spec §2; it exists whatever the home is). */
export function DownloadMobileRoute() {
  const token = useToken();
  if (!token) return <OpenShareLinkPage token={null} target="downLoadM" />;
  return <ShareLinkPage token={token} compact />;
}
