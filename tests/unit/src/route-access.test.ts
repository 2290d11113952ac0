import { describe, expect, it } from 'vitest';
import { isLoginPath, isRouteAllowed, PUBLIC_PATHS } from '../../../src/app/route-access';

/** The menu routes the demo server saves for a member (server/services/config-service.ts). */
const MEMBER_MENU = ['/main/file/personal', '/main/file/backups', '/main/group', '/main/notice', '/main/user/userInfo', '/main/user/accountSafe'];

describe('route guard rule (spec §2)', () => {
  it('always allows login paths and the public pages, whatever the menu', () => {
    for (const p of ['/login', '/login/abc', '/login/', ...PUBLIC_PATHS]) expect(isRouteAllowed(p, []), p).toBe(true);
    expect(isLoginPath('/login/42')).toBe(true);
    expect(isLoginPath('/loginx')).toBe(false);
  });

  it('allows everything when no menu is saved', () => {
    expect(isRouteAllowed('/main/system/desk', null)).toBe(true);
    expect(isRouteAllowed('/main/anything/at/all', null)).toBe(true);
  });

  it('always allows unifiedSearch', () => {
    expect(isRouteAllowed('/main/file/unifiedSearch', [])).toBe(true);
    expect(isRouteAllowed('/main/file/unifiedSearch?q=x', MEMBER_MENU)).toBe(true);
  });

  it('allows a path whose first three segments are a saved route', () => {
    expect(isRouteAllowed('/main/file/personal', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/file/personal/extra', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/file/personal?dir=12', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/user/accountSafe', MEMBER_MENU)).toBe(true);
  });

  it('allows a path whose first two segments are a saved route', () => {
    expect(isRouteAllowed('/main/notice/systemNotice', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/group', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/system/user/list', ['/main/system'])).toBe(true);
  });

  it('refuses paths outside the menu (a member opening the admin pages, an unlisted file page)', () => {
    expect(isRouteAllowed('/main/system/desk', MEMBER_MENU)).toBe(false);
    expect(isRouteAllowed('/main/system/user/list', MEMBER_MENU)).toBe(false);
    expect(isRouteAllowed('/main/file/recycle', MEMBER_MENU)).toBe(false);
    expect(isRouteAllowed('/main/addressList', MEMBER_MENU)).toBe(false);
    // One segment of a saved route is not enough: '/main/file' is not '/main/file/personal'.
    expect(isRouteAllowed('/main/fileX/personal', MEMBER_MENU)).toBe(false);
  });

  it('does not treat a menu route with a trailing slash or query differently', () => {
    expect(isRouteAllowed('/main/group/', ['/main/group?tab=1'])).toBe(true);
  });

  it('lets a parent path through to its default child, which is then checked itself', () => {
    expect(isRouteAllowed('/main', MEMBER_MENU)).toBe(true);
    expect(isRouteAllowed('/main/file', MEMBER_MENU)).toBe(true);
  });

  it('an empty saved menu allows only the always-allowed paths', () => {
    expect(isRouteAllowed('/main/file/personal', [])).toBe(false);
    expect(isRouteAllowed('/login', [])).toBe(true);
  });
});
