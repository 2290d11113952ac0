import type { NetworkEnv } from '../../common/api/client-env';
import type { PasswordChangeType, RoleCode } from '../../common/api/types';

/** Who is calling: taken from the session, never from the request body. */
export interface Caller {
  userId: string;
  tenantId: string;
  username: string;
  role: RoleCode;
  /** Non-zero: only routes marked allowDuringPasswordChange answer (see PasswordChangeType). */
  passwordChangeType: PasswordChangeType;
  /** The network the session logged in from. */
  networkEnv: NetworkEnv;
  /** A platform admin: sees every tenant (common/api/tenant.ts). Absent = false. */
  platformAdmin?: boolean;
  /** The session (its stored id, the token's hash) the request came with; absent outside a session. */
  sessionId?: string;
  /** The session's 手势密码 lock is up (sessions.gesture_locked); the guard decides whether it still holds. */
  gestureLocked?: boolean;
  /** Set for requests that did not come from our apps: `webdav` (server/dav/dav-auth.ts), recorded as the action log's platform. */
  client?: 'webdav';
}
