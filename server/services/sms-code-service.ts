import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import type { SmsPurpose } from '../../common/api/endpoints/auth';
import { PHONE_PATTERN, SMS_CODE_PATTERN, type SmsSendResult } from '../../common/api/types';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { SmsCodeRepository } from '../repositories/sms-code-repository';
import type { AccountPolicy } from './account-policy';
import { LOCK_KEYS, type Locks } from './locks';
import { smsCodeText, type SmsGateway } from './sms/sms-gateway';

const HOUR_MS = 3600 * 1000;

/** Salted so equal codes of different rows hash differently; a read of the table shows no live code. */
function codeHash(salt: string, code: string): string {
  return salt + '$' + createHash('sha256').update(`${salt}:${code}`).digest('hex');
}

function codeMatches(stored: string, code: string): boolean {
  const salt = stored.slice(0, stored.indexOf('$'));
  const a = Buffer.from(stored);
  const b = Buffer.from(codeHash(salt, code));
  return a.length === b.length && timingSafeEqual(a, b);
}

export function assertPhone(phone: string): void {
  if (!PHONE_PATTERN.test(phone)) throw new AppError(ERRORS.PHONE_INVALID);
}

export interface SmsIssueRequest {
  phone: string;
  purpose: SmsPurpose;
  /** The caller for bindPhone and verifyPhone; null for login. */
  userId: string | null;
  /** Whether the phone should really get the code (login: only phones of an account). */
  deliver: boolean;
  address: string;
}

/**
 * One-time SMS codes: 6 digits, ≤ 10 minutes, single use, stored hashed, limited per phone and per
 * address, dead after `smsMaxAttempts` wrong tries (rules: SmsSendQuery / SmsLoginRequest in common).
 */
export interface SmsCodeServiceDeps {
  repo: SmsCodeRepository;
  gateway: SmsGateway;
  policy: AccountPolicy;
  onSendError: (err: unknown) => void;
  /** The server's locks (services/locks.ts): the rate decisions of a phone and an address, in any process. */
  locks: Locks;
}

export class SmsCodeService {
  private readonly repo: SmsCodeRepository;
  private readonly gateway: SmsGateway;
  private readonly policy: AccountPolicy;
  private readonly onSendError: (err: unknown) => void;
  private readonly locks: Locks;

  constructor(deps: SmsCodeServiceDeps) {
    ({ repo: this.repo, gateway: this.gateway, policy: this.policy, onSendError: this.onSendError, locks: this.locks } = deps);
  }

  /** The gateway really delivers codes (see SmsGateway.delivers). */
  get delivers(): boolean {
    return this.gateway.delivers;
  }

  /**
   * Counts, decides and stores under the phone's lock, then the address's (always in that order, so
   * two never wait for each other), so requests at once, at one process or several, cannot all pass
   * the limits before the first is stored.
   */
  async issue(req: SmsIssueRequest, now = Date.now()): Promise<SmsSendResult> {
    assertPhone(req.phone);
    return this.locks.run(LOCK_KEYS.smsPhone(req.phone), () => this.locks.run(LOCK_KEYS.smsAddress(req.address), () => this.issueNow(req, Math.max(now, Date.now()))));
  }

  private async issueNow(req: SmsIssueRequest, now: number): Promise<SmsSendResult> {
    const p = this.policy;
    const tooFrequent =
      (p.smsResendMs > 0 && (await this.repo.countSince('phone', req.phone, now - p.smsResendMs)) > 0) ||
      (await this.repo.countSince('phone', req.phone, now - HOUR_MS)) >= p.smsPerPhonePerHour ||
      (await this.repo.countSince('address', req.address, now - HOUR_MS)) >= p.smsPerAddressPerHour;
    if (tooFrequent) throw new AppError(ERRORS.SMS_TOO_FREQUENT);

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await this.repo.retire(req.phone, req.purpose);
    // Stored (and counted) even when not delivered, so both cases cost and answer the same.
    await this.repo.insert({
      id: newId(),
      phone: req.phone,
      purpose: req.purpose,
      user_id: req.userId,
      address: req.address,
      code_hash: codeHash(randomBytes(16).toString('hex'), code),
      attempts: 0,
      used: 0,
      created_at: now,
      expires_at: now + p.smsCodeTtlMs,
    });
    if (req.deliver) {
      // Not awaited: a gateway's latency would otherwise tell which phones belong to an account.
      const signal = AbortSignal.timeout(30_000);
      this.gateway.send(req.phone, smsCodeText(code, Math.ceil(p.smsCodeTtlMs / 60_000)), signal).catch(this.onSendError);
    }
    return { expiresIn: Math.floor(p.smsCodeTtlMs / 1000), resendAfter: Math.ceil(p.smsResendMs / 1000) };
  }

  /** Uses up the live code if `code` is it; otherwise counts a wrong try and answers SMS_CODE_INVALID. */
  async consume(phone: string, purpose: SmsPurpose, userId: string | null, code: string, now = Date.now()): Promise<void> {
    const max = this.policy.smsMaxAttempts;
    const row = PHONE_PATTERN.test(phone) ? await this.repo.findLive(phone, purpose, userId, now, max) : undefined;
    if (!row) throw new AppError(ERRORS.SMS_CODE_INVALID);
    if (!SMS_CODE_PATTERN.test(code) || !codeMatches(row.code_hash, code)) {
      await this.repo.recordWrongAttempt(row.id, max);
      throw new AppError(ERRORS.SMS_CODE_INVALID);
    }
    if (!(await this.repo.consume(row.id, now))) throw new AppError(ERRORS.SMS_CODE_INVALID);
  }

  /**
   * Like `consume` for several codes at once (更换手机号: the old phone's and the new one's): every
   * wrong one counts a try, and only when all are right are they used up, so one mistyped code does
   * not waste the other.
   */
  async consumeAll(codes: ReadonlyArray<{ phone: string; purpose: SmsPurpose; userId: string | null; code: string }>, now = Date.now()): Promise<void> {
    const max = this.policy.smsMaxAttempts;
    const rows = [];
    let wrong = false;
    for (const c of codes) {
      const row = PHONE_PATTERN.test(c.phone) ? await this.repo.findLive(c.phone, c.purpose, c.userId, now, max) : undefined;
      if (!row) {
        wrong = true;
        continue;
      }
      if (!SMS_CODE_PATTERN.test(c.code) || !codeMatches(row.code_hash, c.code)) {
        await this.repo.recordWrongAttempt(row.id, max);
        wrong = true;
        continue;
      }
      rows.push(row);
    }
    if (wrong) throw new AppError(ERRORS.SMS_CODE_INVALID);
    for (const row of rows) if (!(await this.repo.consume(row.id, now))) throw new AppError(ERRORS.SMS_CODE_INVALID);
  }

  deleteOld(now: number): Promise<number> {
    return this.repo.deleteOlderThan(now - HOUR_MS);
  }
}
