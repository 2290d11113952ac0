import type { FastifyInstance } from 'fastify';
import { AUTH } from '../../common/api/endpoints/auth';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { route } from '../http/endpoint-route';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../http/session-cookie';
import { claimedNetworkEnv, requirePlatformHeader } from '../http/client-headers';
import type { AuthService } from '../services/auth-service';
import type { CaptchaService } from '../services/captcha-service';

/** Login, captchas, SMS codes and logout (declared in common/api/endpoints/auth.ts). */
export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, captchas: CaptchaService, sessionTtlMs: number): void {
  route(app, AUTH.captcha, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { data: await captchas.issue() };
  });

  route(app, AUTH.login, async (request, reply) => {
    const { token, result } = await auth.login(request.body, { address: request.ip, networkEnv: claimedNetworkEnv(request), userAgent: request.headers['user-agent'] });
    setSessionCookie(request, reply, token, Date.now() + sessionTtlMs);
    return { data: result };
  });

  route(app, AUTH.captchaValidate, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!(await captchas.validate(request.query.captchaId, request.query.captchaCode))) throw new AppError(ERRORS.CAPTCHA_INVALID);
    return { data: true as const };
  });

  route(app, AUTH.smsSend, async (request, reply) => {
    requirePlatformHeader(request);
    reply.header('Cache-Control', 'no-store');
    return { data: await auth.sendSmsCode(request.query, request.caller, request.ip) };
  });

  route(app, AUTH.smsValidate, async (request, reply) => {
    const { token, result } = await auth.smsLogin(request.body, { address: request.ip, networkEnv: claimedNetworkEnv(request), userAgent: request.headers['user-agent'] });
    setSessionCookie(request, reply, token, Date.now() + sessionTtlMs);
    return { data: result };
  });

  route(app, AUTH.logout, async (request, reply) => {
    await auth.logout(request.cookies[SESSION_COOKIE], request.caller);
    clearSessionCookie(request, reply);
    return { data: null };
  });
}
