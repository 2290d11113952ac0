import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type { PasswordResetRequest } from '../../common/api/types';
import { claimedNetworkEnv } from '../http/client-headers';
import type { PasswordResetService } from '../services/password-reset-service';

const field = { type: 'string', maxLength: 512 } as const;

/** 忘记密码 by an SMS code to the bound phone (public: the user cannot log in). */
export function registerPasswordResetRoutes(app: FastifyInstance, resets: PasswordResetService): void {
  app.post(
    API.passwordReset,
    {
      config: { public: true },
      schema: { body: { type: 'object', required: ['phone', 'code', 'value'], properties: { phone: field, code: field, value: field } } },
    },
    async (request): Promise<ApiOk<null>> => {
      await resets.reset(request.body as PasswordResetRequest, claimedNetworkEnv(request));
      return { data: null };
    },
  );
}
