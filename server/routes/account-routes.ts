import type { FastifyInstance } from 'fastify';
import { ACCOUNT } from '../../common/api/endpoints/account';
import { route } from '../http/endpoint-route';
import { clearSessionCookie } from '../http/session-cookie';
import { callerOf } from '../http/session-guard';
import type { AccountService } from '../services/account-service';

/** The caller's own account and the admins' account switches (declared in common/api/endpoints/account.ts). */
export function registerAccountRoutes(app: FastifyInstance, accounts: AccountService): void {
  route(app, ACCOUNT.readAgreement, async (request) => {
    await accounts.readAgreement(callerOf(request));
    return { data: null };
  });

  route(app, ACCOUNT.userInfoModify, async (request, reply) => {
    await accounts.changePassword(callerOf(request), request.body, request.ip);
    // Every session of the user ended, this one too: the client logs in again (spec §2).
    clearSessionCookie(request, reply);
    return { data: null };
  });

  route(app, ACCOUNT.phoneValidate, async (request) => {
    await accounts.bindPhone(callerOf(request), request.body);
    return { data: null };
  });

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
