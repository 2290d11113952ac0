import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type { UserDetails } from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { UserService } from '../services/user-service';

export function registerUserRoutes(app: FastifyInstance, users: UserService): void {
  app.post(API.userDetails, { config: { allowDuringPasswordChange: true } }, async (request): Promise<ApiOk<UserDetails>> => ({
    data: await users.details(callerOf(request)),
  }));
}
