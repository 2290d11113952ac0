import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { DIR_QUERY_PARAM } from '../../../lib/file-urls';

export { DIR_QUERY_PARAM };

/** The open folder, kept in the URL (`?dir=<id>`) so a reload stays in place; null = root. */
export function useCurrentDir(): [string | null, (dir: string | null) => void] {
  const [location, navigate] = useLocation();
  const search = useSearch();
  const dir = new URLSearchParams(search).get(DIR_QUERY_PARAM) || null;
  const openDir = useCallback(
    (next: string | null) => {
      const params = new URLSearchParams(search);
      if (next) params.set(DIR_QUERY_PARAM, next);
      else params.delete(DIR_QUERY_PARAM);
      const qs = params.toString();
      navigate(qs ? `${location}?${qs}` : location);
    },
    [location, navigate, search],
  );
  return [dir, openDir];
}
