/**
 * The signed-in user's details, for pages that need to know who is asking (lock holder, space
 * ownership). Fetched on mount, not cached across pages: a later login as someone else must not see
 * the previous user.
 */
import { useEffect, useState } from 'react';
import { API } from '../../common/api/paths';
import type { UserDetails } from '../../common/api/types';
import { api } from './api';

export function useCurrentUser(): UserDetails | null {
  const [user, setUser] = useState<UserDetails | null>(null);
  useEffect(() => {
    let alive = true;
    api.post<UserDetails>(API.userDetails, {}).then(
      (u) => alive && setUser(u),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, []);
  return user;
}
