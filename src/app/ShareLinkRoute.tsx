import { useEffect, useState } from 'react';
import { Redirect } from 'wouter';
import { PageLoading } from '../components/PageLoading';
import { StandalonePlaceholderPage } from '../features/status';
import { DEFAULT_HOME_URL, fetchHomeUrl } from '../lib/session';

/**
 * Spec §2: /openShareLink and /shareLink exist only when the configured home is the personal files
 * page. Asking for the home url needs a session, so a visitor who is not logged in gets the 401 path:
 * /login?redirect=<this link>, and comes back here after logging in (spec §4/§8).
 */
export function ShareLinkRoute({ title }: { title: string }) {
  const [home, setHome] = useState<string | null | 'failed'>(null);
  useEffect(() => {
    let alive = true;
    fetchHomeUrl().then(
      (url) => alive && setHome(url),
      () => alive && setHome('failed'),
    );
    return () => {
      alive = false;
    };
  }, []);
  if (home === null || home === 'failed') return <PageLoading />;
  if (home.split('?')[0] !== DEFAULT_HOME_URL) return <Redirect to="/error" replace />;
  return <StandalonePlaceholderPage title={title} />;
}
