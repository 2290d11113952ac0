import type { FastifyInstance } from 'fastify';
import { DEVICE_PASSWORDS } from '../../common/api/endpoints/device-passwords';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { DevicePasswordService } from '../services/device-password-service';

/** 账号安全 → 设备密码 (declared in common/api/endpoints/device-passwords.ts). */
export function registerDevicePasswordRoutes(app: FastifyInstance, passwords: DevicePasswordService): void {
  route(app, DEVICE_PASSWORDS.list, async (request) => ({ data: await passwords.list(callerOf(request)) }));
  route(app, DEVICE_PASSWORDS.create, async (request) => ({ data: await passwords.create(callerOf(request), request.body.name) }));
  route(app, DEVICE_PASSWORDS.revoke, async (request) => {
    await passwords.revoke(callerOf(request), request.body.id);
    return { data: null };
  });
}
