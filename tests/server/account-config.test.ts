import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { DEFAULT_ACCOUNT_POLICY, resolveAccountPolicy } from '../../server/services/account-policy';

describe('account settings from the environment', () => {
  it('defaults when unset, reads every variable when set', () => {
    expect(configFromEnv({}).accounts).toEqual(DEFAULT_ACCOUNT_POLICY);
    const accounts = configFromEnv({
      LOGIN_SLOW_AFTER: '5',
      LOGIN_ADDRESS_SLOW_AFTER: '50',
      LOGIN_DELAY_BASE_MS: '2000',
      LOGIN_DELAY_MAX_MS: '25000',
      LOGIN_LOCK_AFTER: '0',
      LOGIN_FAILURE_WINDOW_MS: '60000',
      PASSWORD_EXPIRY_DAYS: '90',
      SMS_CODE_TTL_MS: '300000',
      SMS_RESEND_MS: '30000',
      SMS_PER_PHONE_PER_HOUR: '3',
      SMS_PER_ADDRESS_PER_HOUR: '10',
      SMS_MAX_ATTEMPTS: '4',
      FORCE_NETWORK_ENV: 'public',
    }).accounts;
    expect(accounts).toEqual({
      loginSlowAfter: 5,
      loginAddressSlowAfter: 50,
      loginDelayBaseMs: 2000,
      loginDelayMaxMs: 25000,
      loginLockAfter: 0,
      loginFailureWindowMs: 60000,
      passwordExpiryDays: 90,
      smsCodeTtlMs: 300000,
      smsResendMs: 30000,
      smsPerPhonePerHour: 3,
      smsPerAddressPerHour: 10,
      smsMaxAttempts: 4,
      forceNetworkEnv: 'public',
    });
  });

  it('reads the desktop release', () => {
    expect(configFromEnv({}).desktopRelease).toBeUndefined();
    expect(configFromEnv({ DESKTOP_VERSION_NAME: '2.0.1', DESKTOP_VERSION_DESC: 'x', DESKTOP_VERSION_FORCE: '1' }).desktopRelease).toEqual({
      versionName: '2.0.1',
      versionDesc: 'x',
      isForce: true,
    });
  });

  it('refuses an SMS code lifetime above 10 minutes and unknown values', () => {
    expect(() => configFromEnv({ SMS_CODE_TTL_MS: '600001' })).toThrow(/at most 600000/);
    expect(() => resolveAccountPolicy({ smsCodeTtlMs: 11 * 60 * 1000 })).toThrow();
    expect(() => configFromEnv({ FORCE_NETWORK_ENV: 'dmz' })).toThrow(/FORCE_NETWORK_ENV/);
    // The chunk policy's bounds (common/transfer/chunk-policy.ts): clients would cut files at another size.
    expect(() => configFromEnv({ CHUNK_SIZE: '1024' })).toThrow(/CHUNK_SIZE: a chunk size is a whole number of bytes from 262144/);
    expect(() => configFromEnv({ CHUNK_SIZE: String(128 * 1024 * 1024) })).toThrow(/CHUNK_SIZE/);
    expect(configFromEnv({ CHUNK_SIZE: String(1024 * 1024) }).chunkSize).toBe(1024 * 1024);
    expect(() => configFromEnv({ LOGIN_LOCK_AFTER: '-1' })).toThrow(/LOGIN_LOCK_AFTER/);
  });
});
