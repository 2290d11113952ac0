import type { FastifyInstance } from 'fastify';
import { ACCOUNT } from '../../common/api/endpoints/account';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { UserProfileService } from '../services/user-profile-service';
import type { UserService } from '../services/user-service';

/** 基本信息: the user's own nickname and avatar, and the avatars of the tenant's users (common/api/endpoints/account.ts). */
export function registerUserProfileRoutes(app: FastifyInstance, profiles: UserProfileService, users: UserService): void {
  route(app, ACCOUNT.profileUpdate, async (request) => {
    const caller = callerOf(request);
    await profiles.update(caller, request.body);
    return { data: await users.details(caller) };
  });

  route(app, ACCOUNT.avatar, async (request, reply) => {
    const stream = await profiles.avatar(callerOf(request), request.params.key);
    // A new picture gets a new key: this one never changes.
    return reply.header('Cache-Control', 'private, max-age=31536000, immutable').type('image/webp').send(stream);
  });
}
