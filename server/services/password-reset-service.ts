import { ERRORS } from '../../common/api/errors';
import type { NetworkEnv } from '../../common/api/client-env';
import type { PasswordResetRequest } from '../../common/api/endpoints/auth';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { validateNewPassword } from '../../common/validation/password';
import { AppError } from '../http/app-error';
import type { SessionRepository } from '../repositories/session-repository';
import type { UserRepository } from '../repositories/user-repository';
import { actionLog, actorOfUser, PLATFORM_TENANT } from './action-log/recorder';
import type { AccountPolicy } from './account-policy';
import type { LoginThrottle } from './login-throttle';
import { hashPassword } from './password-hash';
import type { SmsCodeService } from './sms-code-service';

export interface PasswordResetServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  throttle: LoginThrottle;
  smsCodes: SmsCodeService;
  policy: AccountPolicy;
}

/**
 * 忘记密码: a new password for the account whose bound phone gets the code (sent with purpose
 * resetPassword, under the same captcha and throttles as an SMS login, and delivered only to a phone
 * of an account, so the answers tell nobody which phones have one). Rules: PasswordResetRequest.
 */
export class PasswordResetService {
  constructor(private readonly deps: PasswordResetServiceDeps) {}

  async reset(req: PasswordResetRequest, claimedNetworkEnv: NetworkEnv, now = Date.now()): Promise<void> {
    const networkEnv = this.deps.policy.forceNetworkEnv ?? claimedNetworkEnv;
    const user = await this.deps.users.findByPhone(req.phone);
    actionLog.record({
      action: 'account.passwordReset',
      actor: user ? actorOfUser(user, networkEnv) : { tenantId: PLATFORM_TENANT, id: null, account: `手机尾号${req.phone.slice(-4)}`, role: '', networkEnv },
    });
    // The password is checked before the code is used up: a refused password keeps the code for a second try.
    const value = decryptPassword(req.value) ?? '';
    const broken = validateNewPassword(value);
    if (broken) throw new AppError(ERRORS.PASSWORD_INVALID, broken);
    await this.deps.smsCodes.consume(req.phone, 'resetPassword', null, req.code, now);
    if (!user) throw new AppError(ERRORS.SMS_CODE_INVALID);
    await this.deps.users.update(user.id, { password_hash: await hashPassword(value), must_change_password: 0, password_changed_at: now });
    // Whoever knew the old password is signed out everywhere; the owner proved the phone, so the
    // failures that locked the account are forgotten (an administrator's lock stays).
    await this.deps.sessions.deleteForUser(user.id);
    await this.deps.throttle.clearAccount(user.username);
  }
}
