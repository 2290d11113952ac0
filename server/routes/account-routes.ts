import type { FastifyInstance } from 'fastify';
import { ACCOUNT } from '../../common/api/endpoints/account';
import { route } from '../http/endpoint-route';
import { setSessionCookie } from '../http/session-cookie';
import { callerOf } from '../http/session-guard';
import type { AccountService } from '../services/account-service';

/** The caller's own account and the admins' account switches (declared in common/api/endpoints/account.ts). */
export function registerAccountRoutes(app: FastifyInstance, accounts: AccountService, sessionTtlMs: number): void {
  route(app, ACCOUNT.readAgreement, async (request) => {
    await accounts.readAgreement(callerOf(request));
    return { data: null };
  });

  route(app, ACCOUNT.userInfoModify, async (request, reply) => {
    const { token } = await accounts.changePassword(callerOf(request), request.body, { address: request.ip, userAgent: request.headers['user-agent'] });
    // Every session of the user ended; this device goes on with a new one (issue 44).
    setSessionCookie(request, reply, token, Date.now() + sessionTtlMs);
    return { data: null };
  });

  route(app, ACCOUNT.phoneValidate, async (request) => {
    await accounts.bindPhone(callerOf(request), request.body, request.ip);
    return { data: null };
  });

  route(app, ACCOUNT.sessions, async (request) => ({ data: await accounts.devices(callerOf(request)) }));
  route(app, ACCOUNT.sessionEnd, async (request) => {
    await accounts.endDevice(callerOf(request), request.body);
    return { data: null };
  });
  route(app, ACCOUNT.sessionEndOthers, async (request) => ({ data: await accounts.endOtherDevices(callerOf(request)) }));

  route(app, ACCOUNT.getRoles, async (request) => ({ data: await accounts.getRoles(callerOf(request), request.query.userId) }));
  route(app, ACCOUNT.setRoles, async (request) => ({ data: await accounts.setRoles(callerOf(request), request.body) }));
  route(app, ACCOUNT.userSearch, async (request) => ({ data: await accounts.search(callerOf(request), request.body) }));

  route(app, ACCOUNT.lock, async (request) => {
    await accounts.lock(callerOf(request), request.body);
    return { data: null };
  });
  route(app, ACCOUNT.unlock, async (request) => {
    await accounts.unlock(callerOf(request), request.body);
    return { data: null };
  });

  route(app, ACCOUNT.outerLoginSet, async (request) => {
    await accounts.setOuterLogin(callerOf(request), request.body);
    return { data: null };
  });
}
