import type { FastifyInstance } from 'fastify';
import { ACCOUNT } from '../../common/api/endpoints/account';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { UserService } from '../services/user-service';

/** Who is signed in (declared in common/api/endpoints/account.ts). */
export function registerUserRoutes(app: FastifyInstance, users: UserService): void {
  route(app, ACCOUNT.userDetails, async (request) => ({ data: await users.details(callerOf(request)) }));
}
