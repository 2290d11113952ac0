import type { NetworkEnv } from '../../common/api/client-env';

/**
 * Login throttling, lock-out, password expiry and SMS limits. Rules are documented once, for both
 * sides, on LoginForm and SmsSendQuery in common/api/endpoints/auth.ts; the README's settings table lists the
 * environment variables (configFromEnv in config.ts).
 */
export interface AccountPolicy {
  /** Failures of one account name before each next attempt must wait. */
  loginSlowAfter: number;
  /**
   * Failures from one client address before each next attempt from it must wait. Higher than the
   * account's: one address may be a whole office behind NAT, whose typos add up.
   */
  loginAddressSlowAfter: number;
  /** First wait; it doubles with every further failure... */
  loginDelayBaseMs: number;
  /** ...up to this. */
  loginDelayMaxMs: number;
  /** Failures of one account name that lock it until an admin unlocks; 0 = never lock. */
  loginLockAfter: number;
  /** A failure count starts again after this long without failures. */
  loginFailureWindowMs: number;
  /** Passwords older than this must be changed after login; 0 = passwords never expire. */
  passwordExpiryDays: number;
  /** SMS code lifetime; capped at 10 minutes. */
  smsCodeTtlMs: number;
  /** Least time between two codes for one phone. */
  smsResendMs: number;
  smsPerPhonePerHour: number;
  smsPerAddressPerHour: number;
  /** Wrong tries that use a code up. */
  smsMaxAttempts: number;
  /**
   * The network this instance serves, overriding the client's X-Network-Env header: an instance
   * reachable from the public network sets `public` so a client cannot claim to be internal.
   */
  forceNetworkEnv: NetworkEnv | undefined;
}

export const SMS_CODE_MAX_TTL_MS = 10 * 60 * 1000;

export const DEFAULT_ACCOUNT_POLICY: AccountPolicy = {
  loginSlowAfter: 3,
  loginAddressSlowAfter: 20,
  loginDelayBaseMs: 1000,
  loginDelayMaxMs: 30_000,
  loginLockAfter: 10,
  loginFailureWindowMs: 15 * 60 * 1000,
  // ASVS 5.0 advises against periodic rotation; a deployment that must have it sets the days.
  passwordExpiryDays: 0,
  smsCodeTtlMs: SMS_CODE_MAX_TTL_MS,
  smsResendMs: 60_000,
  smsPerPhonePerHour: 5,
  smsPerAddressPerHour: 20,
  smsMaxAttempts: 5,
  forceNetworkEnv: undefined,
};

export function resolveAccountPolicy(overrides: Partial<AccountPolicy> | undefined): AccountPolicy {
  const policy = { ...DEFAULT_ACCOUNT_POLICY, ...overrides };
  if (policy.smsCodeTtlMs > SMS_CODE_MAX_TTL_MS) throw new Error('SMS_CODE_TTL_MS must be at most 600000 (10 minutes)');
  return policy;
}
