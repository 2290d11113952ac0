import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { PageLoading } from '../components/PageLoading';
import { savedAccount } from '../lib/data/account';
import { DEFAULT_HOME_URL, fetchHomeUrl } from '../lib/session';

/**
 * '/' → the configured home page (GET homeUrl; a 401 there sends the user to /login instead).
 * A browser nobody is signed in on (no account pointer: never logged in, logged out, or the
 * server ended the session) goes straight to /login: asking first would only log a 401.
 */
export function HomeRedirect() {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (!savedAccount()) return navigate('/login', { replace: true });
    let alive = true;
    fetchHomeUrl().then(
      (url) => alive && navigate(url, { replace: true }),
      (e: unknown) => {
        const status = (e as { status?: number }).status;
        if (alive && status !== 401 && status !== 400) navigate(DEFAULT_HOME_URL, { replace: true });
      },
    );
    return () => {
      alive = false;
    };
  }, [navigate]);
  return <PageLoading />;
}
