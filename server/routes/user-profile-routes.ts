import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type { ProfileUpdateRequest, UserDetails } from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { UserProfileService } from '../services/user-profile-service';
import type { UserService } from '../services/user-service';

/** Base64 of an avatar: 2 MiB decoded, with room for a data: prefix. */
const picture = { type: 'string', maxLength: 3 * 1024 * 1024 } as const;

/** 基本信息: the user's own nickname and avatar, and the avatars of the tenant's users. */
export function registerUserProfileRoutes(app: FastifyInstance, profiles: UserProfileService, users: UserService): void {
  app.post(
    API.userProfileUpdate,
    {
      schema: {
        body: { type: 'object', additionalProperties: false, properties: { nickName: { type: 'string', maxLength: 256 }, avatar: picture } },
      },
    },
    async (request): Promise<ApiOk<UserDetails>> => {
      const caller = callerOf(request);
      await profiles.update(caller, request.body as ProfileUpdateRequest);
      return { data: await users.details(caller) };
    },
  );

  app.get(
    `${API.userAvatarPrefix}:key`,
    { schema: { params: { type: 'object', required: ['key'], properties: { key: { type: 'string', maxLength: 128 } } } } },
    async (request, reply) => {
      const stream = await profiles.avatar(callerOf(request), (request.params as { key: string }).key);
      // A new picture gets a new key: this one never changes.
      return reply.header('Cache-Control', 'private, max-age=31536000, immutable').type('image/webp').send(stream);
    },
  );
}
