import { REDIRECT_QUERY_PARAM } from '../../../common/constants';
import type { LoginResult } from '../../../common/api/types';
import { DEFAULT_HOME_URL, isSafeRelativeUrl } from '../../lib/session';

/** Where a successful login goes (spec §2/§4). */
export function loginTarget(result: LoginResult, search: string): string {
  if (result.passwordChangeType === 1 || result.passwordChangeType === 2) {
    return `/initialPswChange?type=${result.passwordChangeType}`;
  }
  const redirect = new URLSearchParams(search).get(REDIRECT_QUERY_PARAM);
  if (isSafeRelativeUrl(redirect) && !redirect.startsWith('/login')) return redirect;
  return isSafeRelativeUrl(result.homeUrl) ? result.homeUrl : DEFAULT_HOME_URL;
}
