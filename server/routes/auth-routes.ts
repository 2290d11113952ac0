import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import { ERRORS } from '../../common/api/errors';
import type { CaptchaImage, CaptchaValidateQuery, LoginForm, LoginResult, SmsLoginRequest, SmsSendQuery, SmsSendResult } from '../../common/api/types';
import { AppError } from '../http/app-error';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../http/session-cookie';
import { claimedNetworkEnv, requirePlatformHeader } from '../http/client-headers';
import type { AuthService } from '../services/auth-service';
import type { CaptchaService } from '../services/captcha-service';

const field = { type: 'string', maxLength: 512 } as const;

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, captchas: CaptchaService, sessionTtlMs: number): void {
  app.get(API.captcha, { config: { public: true } }, async (_request, reply): Promise<ApiOk<CaptchaImage>> => {
    reply.header('Cache-Control', 'no-store');
    return { data: await captchas.issue() };
  });

  // Form-encoded (spec §7). Fields are optional in the schema: a missing captcha has its own error code.
  app.post(
    API.loginPath,
    {
      config: { public: true, bodyEncoding: 'form' },
      schema: {
        body: {
          type: 'object',
          properties: { username: field, password: field, captchaId: field, captchaCode: field, tenant: field },
        },
      },
    },
    async (request, reply): Promise<ApiOk<LoginResult>> => {
      const { token, result } = await auth.login(request.body as Partial<LoginForm>, {
        address: request.ip,
        networkEnv: claimedNetworkEnv(request),
      });
      setSessionCookie(request, reply, token, Date.now() + sessionTtlMs);
      return { data: result };
    },
  );

  app.get(
    API.captchaValidate,
    {
      config: { public: true },
      schema: {
        querystring: { type: 'object', required: ['captchaId', 'captchaCode'], properties: { captchaId: field, captchaCode: field } },
      },
    },
    async (request, reply): Promise<ApiOk<true>> => {
      reply.header('Cache-Control', 'no-store');
      const q = request.query as CaptchaValidateQuery;
      if (!(await captchas.validate(q.captchaId, q.captchaCode))) throw new AppError(ERRORS.CAPTCHA_INVALID);
      return { data: true };
    },
  );

  app.get(
    API.smsSend,
    {
      // Public for SMS login; purpose bindPhone checks the session itself.
      config: { public: true },
      schema: {
        querystring: {
          type: 'object',
          required: ['phone', 'purpose', 'captchaId', 'captchaCode'],
          properties: { phone: field, purpose: { type: 'string', enum: ['login', 'bindPhone', 'resetPassword'] }, captchaId: field, captchaCode: field },
        },
      },
    },
    async (request, reply): Promise<ApiOk<SmsSendResult>> => {
      requirePlatformHeader(request);
      reply.header('Cache-Control', 'no-store');
      return { data: await auth.sendSmsCode(request.query as SmsSendQuery, request.caller, request.ip) };
    },
  );

  app.post(
    API.smsValidate,
    {
      config: { public: true },
      schema: { body: { type: 'object', required: ['phone', 'code'], properties: { phone: field, code: field } } },
    },
    async (request, reply): Promise<ApiOk<LoginResult>> => {
      const { token, result } = await auth.smsLogin(request.body as SmsLoginRequest, {
        address: request.ip,
        networkEnv: claimedNetworkEnv(request),
      });
      setSessionCookie(request, reply, token, Date.now() + sessionTtlMs);
      return { data: result };
    },
  );

  // Works with or without a session, so a client can always reset to a clean state.
  app.post(API.logout, { config: { public: true } }, async (request, reply): Promise<ApiOk<null>> => {
    await auth.logout(request.cookies[SESSION_COOKIE], request.caller);
    clearSessionCookie(request, reply);
    return { data: null };
  });
}
