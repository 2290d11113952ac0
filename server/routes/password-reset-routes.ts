import type { FastifyInstance } from 'fastify';
import { AUTH } from '../../common/api/endpoints/auth';
import { claimedNetworkEnv } from '../http/client-headers';
import { route } from '../http/endpoint-route';
import type { PasswordResetService } from '../services/password-reset-service';

/** 忘记密码 by an SMS code to the bound phone (public: the user cannot log in; common/api/endpoints/auth.ts). */
export function registerPasswordResetRoutes(app: FastifyInstance, resets: PasswordResetService): void {
  route(app, AUTH.passwordReset, async (request) => {
    await resets.reset(request.body, claimedNetworkEnv(request));
    return { data: null };
  });
}
