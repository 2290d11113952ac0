import type { FastifyInstance } from 'fastify';
import { installDavAuth, DavAuthenticator } from '../dav/dav-auth';
import { DevicePasswordRepository } from '../repositories/device-password-repository';
import { registerDevicePasswordRoutes } from '../routes/device-password-routes';
import type { AccountPolicy } from '../services/account-policy';
import { DevicePasswordService } from '../services/device-password-service';
import type { LoginThrottle } from '../services/login-throttle';
import type { TenantService } from '../services/tenant-service';
import type { UserRepository } from '../repositories/user-repository';
import type { ActionLogService } from '../services/action-log-service';
import type { Base, Routed } from './base';

export interface DevicePasswordsDeps extends Base {
  throttle: LoginThrottle;
  policy: AccountPolicy;
  tenants: TenantService;
  users: UserRepository;
  actionLogs: ActionLogService;
}

/**
 * 设备密码 (issue 39) and the sign-in of every WebDAV request: the app is decorated with the
 * authenticator the /dav/ plugin asks through `authenticateDav(request)` (server/dav/dav-auth.ts).
 */
export function buildDevicePasswords({ db, config, log, throttle, policy, tenants, users, actionLogs }: DevicePasswordsDeps): Routed & { passwords: DevicePasswordService; authenticator: DavAuthenticator } {
  const davEnabled = async (tenantId: string) => (await tenants.switches(tenantId)).webdav;
  const passwords = new DevicePasswordService({
    repo: new DevicePasswordRepository(db),
    davEnabled,
    publicBaseUrl: config.publicBaseUrl,
    onError: (err, message) => log.error({ err }, message),
  });
  const authenticator = new DavAuthenticator({ passwords, throttle, policy, davEnabled, users, actionLogs });
  return {
    passwords,
    authenticator,
    routes(app: FastifyInstance) {
      installDavAuth(app, authenticator);
      registerDevicePasswordRoutes(app, passwords);
    },
  };
}
