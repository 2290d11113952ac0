import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type {
  AccountLockRequest,
  OuterLoginSetRequest,
  PhoneValidateRequest,
  SetRolesRequest,
  UserInfoModifyRequest,
  UserRoles,
  UserSearchRequest,
  UserSummary,
} from '../../common/api/types';
import { clearSessionCookie } from '../http/session-cookie';
import { callerOf } from '../http/session-guard';
import type { AccountService } from '../services/account-service';
import { idString } from './schemas';

const cipherText = { type: 'string', maxLength: 512 } as const;
const phoneString = { type: 'string', maxLength: 32 } as const;
const codeString = { type: 'string', maxLength: 16 } as const;
const userIdBody = { type: 'object', required: ['userId'], properties: { userId: idString } } as const;

export function registerAccountRoutes(app: FastifyInstance, accounts: AccountService): void {
  // Part of the first-login flow, so reachable before the initial password is changed.
  app.post(API.readAgreement, { config: { allowDuringPasswordChange: true } }, async (request): Promise<ApiOk<null>> => {
    await accounts.readAgreement(callerOf(request));
    return { data: null };
  });

  app.post(
    API.userInfoModify,
    {
      config: { allowDuringPasswordChange: true },
      schema: {
        body: {
          type: 'object',
          required: ['value', 'type', 'oldPassword'],
          properties: { value: cipherText, type: { type: 'integer', enum: [4] }, oldPassword: cipherText },
        },
      },
    },
    async (request, reply): Promise<ApiOk<null>> => {
      await accounts.changePassword(callerOf(request), request.body as UserInfoModifyRequest, request.ip);
      // Every session of the user ended, this one too: the client logs in again (spec §2).
      clearSessionCookie(request, reply);
      return { data: null };
    },
  );

  app.post(
    API.phoneValidate,
    {
      schema: {
        body: { type: 'object', required: ['phone', 'code'], properties: { phone: phoneString, code: codeString } },
      },
    },
    async (request): Promise<ApiOk<null>> => {
      await accounts.bindPhone(callerOf(request), request.body as PhoneValidateRequest);
      return { data: null };
    },
  );

  app.get(
    API.getRoles,
    { schema: { querystring: { type: 'object', properties: { userId: idString } } } },
    async (request): Promise<ApiOk<UserRoles>> => ({
      data: await accounts.getRoles(callerOf(request), (request.query as { userId?: string }).userId),
    }),
  );

  const adminOnly = { adminOnly: true } as const;
  app.post(
    API.setRoles,
    {
      config: adminOnly,
      schema: {
        body: {
          type: 'object',
          required: ['userId', 'roles'],
          properties: {
            userId: idString,
            roles: { type: 'array', minItems: 1, maxItems: 1, items: { type: 'string', enum: ['admin', 'member'] } },
          },
        },
      },
    },
    async (request): Promise<ApiOk<UserRoles>> => ({ data: await accounts.setRoles(callerOf(request), request.body as SetRolesRequest) }),
  );

  app.post(
    API.userSearch,
    { config: adminOnly, schema: { body: { type: 'object', properties: { keyword: { type: 'string', maxLength: 64 } } } } },
    async (request): Promise<ApiOk<UserSummary[]>> => ({
      data: await accounts.search(callerOf(request), (request.body ?? {}) as UserSearchRequest),
    }),
  );

  app.post(API.accountLock, { config: adminOnly, schema: { body: userIdBody } }, async (request): Promise<ApiOk<null>> => {
    await accounts.lock(callerOf(request), request.body as AccountLockRequest);
    return { data: null };
  });
  app.post(API.accountUnlock, { config: adminOnly, schema: { body: userIdBody } }, async (request): Promise<ApiOk<null>> => {
    await accounts.unlock(callerOf(request), request.body as AccountLockRequest);
    return { data: null };
  });

  app.post(
    API.outerLoginSet,
    {
      config: adminOnly,
      schema: {
        body: { type: 'object', required: ['userId', 'enabled'], properties: { userId: idString, enabled: { type: 'boolean' } } },
      },
    },
    async (request): Promise<ApiOk<null>> => {
      await accounts.setOuterLogin(callerOf(request), request.body as OuterLoginSetRequest);
      return { data: null };
    },
  );
}
