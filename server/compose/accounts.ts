import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CaptchaRepository } from '../repositories/captcha-repository';
import { LoginFailureRepository } from '../repositories/login-failure-repository';
import { SessionRepository } from '../repositories/session-repository';
import { SmsCodeRepository } from '../repositories/sms-code-repository';
import { UserRepository } from '../repositories/user-repository';
import { registerAccountRoutes } from '../routes/account-routes';
import { registerAuthRoutes } from '../routes/auth-routes';
import { registerPasswordResetRoutes } from '../routes/password-reset-routes';
import { registerUserProfileRoutes } from '../routes/user-profile-routes';
import { registerUserRoutes } from '../routes/user-routes';
import { resolveAccountPolicy, type AccountPolicy } from '../services/account-policy';
import { AccountService } from '../services/account-service';
import { AuthService, type AuthServiceDeps } from '../services/auth-service';
import { CaptchaService } from '../services/captcha-service';
import { LoginThrottle } from '../services/login-throttle';
import { PasswordResetService } from '../services/password-reset-service';
import { SmsCodeService } from '../services/sms-code-service';
import { LogSmsGateway, OutboxSmsGateway } from '../services/sms/dev-sms-gateways';
import { UserProfileService } from '../services/user-profile-service';
import { UserService } from '../services/user-service';
import type { BlobStore } from '../storage/byte-store';
import type { Locks } from '../services/locks';
import type { Base, Routed } from './base';

/** Where the test hook writes issued captchas (only with DRIVE_TEST_HOOKS=1). */
export function captchaOutboxFile(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'captcha.jsonl');
}

/** Where the development SMS gateway writes messages (only with DRIVE_TEST_HOOKS=1). */
export function smsOutboxFile(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'sms.jsonl');
}

export interface Accounts extends Routed {
  users: UserRepository;
  sessions: SessionRepository;
  captchaRepo: CaptchaRepository;
  policy: AccountPolicy;
  throttle: LoginThrottle;
  smsCodes: SmsCodeService;
  /** Who is calling: the session guard asks it on every request. */
  auth: AuthService;
}

/** Sign-in (captcha, SMS codes, throttling), sessions, one's own account and profile, password reset. */
/** `homeUrlOf`: the login result's home page, the user's tenant's (the tenants domain answers it). */
export function buildAccounts({ db, config, log, blobs, locks, homeUrlOf }: Base & { blobs: BlobStore; locks: Locks; homeUrlOf: AuthServiceDeps['homeUrlOf'] }): Accounts {
  const users = new UserRepository(db);
  const sessions = new SessionRepository(db);
  const captchaRepo = new CaptchaRepository(db);
  const captchas = new CaptchaService(captchaRepo, {
    ttlMs: config.captchaTtlMs,
    outboxFile: config.testHooks ? captchaOutboxFile(config.dataDir) : undefined,
  });
  const policy = resolveAccountPolicy(config.accounts);
  const throttle = new LoginThrottle(new LoginFailureRepository(db), policy, locks);
  const smsGateway = config.testHooks ? new OutboxSmsGateway(smsOutboxFile(config.dataDir)) : new LogSmsGateway((obj, msg) => log.warn(obj, msg));
  const smsCodes = new SmsCodeService({
    repo: new SmsCodeRepository(db),
    gateway: smsGateway,
    policy,
    onSendError: (err) => log.error({ err }, 'SMS send failed'),
    locks,
  });
  const auth = new AuthService({ users, sessions, captchas, throttle, smsCodes, policy, sessionTtlMs: config.sessionTtlMs, homeUrlOf });
  const userService = new UserService(users, config.publicBaseUrl, smsCodes.delivers);
  return {
    users,
    sessions,
    captchaRepo,
    policy,
    throttle,
    smsCodes,
    auth,
    routes(app: FastifyInstance) {
      registerAuthRoutes(app, auth, captchas, config.sessionTtlMs);
      registerUserRoutes(app, userService);
      registerUserProfileRoutes(app, new UserProfileService(users, blobs), userService);
      registerAccountRoutes(app, new AccountService({ users, sessions, throttle, smsCodes, auth }), config.sessionTtlMs);
      registerPasswordResetRoutes(app, new PasswordResetService({ users, sessions, throttle, smsCodes, policy }));
    },
  };
}
