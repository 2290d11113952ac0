import { describe, expect, it } from 'vitest';
import { loginTarget } from '../../../src/features/auth/login-target';
import { maskPhone, quotaPercent } from '../../../src/features/user-centre/use-user-details';

describe('where a login goes (spec §2/§4)', () => {
  it('an initial or expired password goes to the change screen first, whatever the redirect', () => {
    expect(loginTarget({ passwordChangeType: 1, homeUrl: '/main/file/personal' }, '?redirect=%2FshareLink')).toBe('/initialPswChange?type=1');
    expect(loginTarget({ passwordChangeType: 2, homeUrl: '/main/file/personal' }, '')).toBe('/initialPswChange?type=2');
  });

  it('returns to the share link carried by a 401, else the home page', () => {
    expect(loginTarget({ passwordChangeType: 0, homeUrl: '/main/file/personal' }, '?redirect=' + encodeURIComponent('/openShareLink?code=a'))).toBe('/openShareLink?code=a');
    expect(loginTarget({ passwordChangeType: 0, homeUrl: '/main/group' }, '')).toBe('/main/group');
  });

  it('never follows a redirect off the site or back to /login', () => {
    for (const bad of ['//evil.example/x', 'https://evil.example/', '/\\\\evil.example', '/login?redirect=/x']) {
      expect(loginTarget({ passwordChangeType: 0, homeUrl: '/main/file/personal' }, '?redirect=' + encodeURIComponent(bad))).toBe('/main/file/personal');
    }
  });
});

describe('user centre figures', () => {
  it('quota used in percent, one decimal, capped, 0 without a quota', () => {
    expect(quotaPercent(0, 10)).toBe(0);
    expect(quotaPercent(1, 3)).toBe(33.3);
    expect(quotaPercent(5 * 1024 ** 3, 10 * 1024 ** 3)).toBe(50);
    expect(quotaPercent(20, 10)).toBe(100);
    expect(quotaPercent(5, 0)).toBe(0);
  });

  it('masks the middle of a mainland mobile number', () => {
    expect(maskPhone('13700001234')).toBe('137****1234');
    expect(maskPhone('12345')).toBe('12345');
  });
});
