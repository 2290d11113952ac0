import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import type { AuthService } from '../services/auth-service';
import type { Caller } from '../services/caller';
import { AppError } from './app-error';
import { SESSION_COOKIE, setSessionCookie } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url.startsWith('/spacex/');
}

/**
 * A write from another site's page carries that site's Origin; browsers always send Origin on
 * cross-origin POSTs, so a present and different Origin is refused (field notes: check Origin on writes).
 */
function checkOrigin(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string | null = null;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = null;
  }
  if (!originHost || originHost !== request.host) throw new AppError(ERRORS.BAD_ORIGIN);
}

/**
 * Runs before body parsing on every API request: Origin check for writes, then the session. Routes
 * are private unless marked `config.public`; the initial/expired-password gate lets through only
 * routes marked `config.allowDuringPasswordChange`; routes marked `config.adminOnly` refuse members.
 * A session whose 手势密码 lock is up (and still holds: `gestureLock`) gets only the routes marked
 * `config.allowWhileGestureLocked` (the lock screen's calls, logout) and public ones; every other
 * answers GESTURE_LOCKED — here, once, so no route can forget it.
 * Tenant and ownership of ids are checked by the services (another tenant's id → NOT_FOUND).
 */
export function installSessionGuard(app: FastifyInstance, auth: AuthService, gestureLock: { holds(caller: Caller): Promise<boolean> }): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!isApiPath(request.url)) return;
    checkOrigin(request);
    const config = request.routeOptions.config ?? {};
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await auth.authenticate(token, Date.now(), request.ip) : ({ kind: 'none' } as const);
    if (session.kind !== 'valid') {
      if (config.public) return;
      // A session the server ended (locked account...) says so once more: spec §8 '登出' box.
      throw new AppError(session.kind === 'ended' ? ERRORS.SESSION_TERMINATED : ERRORS.UNAUTHORIZED);
    }
    request.caller = session.caller;
    if (session.extendedUntil !== null && token) setSessionCookie(request, reply, token, session.extendedUntil);
    const changeType = session.caller.passwordChangeType;
    if (changeType !== 0 && !config.allowDuringPasswordChange && !config.public) {
      throw new AppError(changeType === 1 ? ERRORS.PASSWORD_CHANGE_REQUIRED : ERRORS.PASSWORD_EXPIRED);
    }
    if (session.caller.gestureLocked && !config.allowWhileGestureLocked && !config.public && (await gestureLock.holds(session.caller))) {
      throw new AppError(ERRORS.GESTURE_LOCKED);
    }
    if (config.adminOnly && session.caller.role !== 'admin') throw new AppError(ERRORS.FORBIDDEN);
  });
}

/** The caller of a private route (the guard has already refused requests without one). */
export function callerOf(request: FastifyRequest) {
  if (!request.caller) throw new AppError(ERRORS.UNAUTHORIZED);
  return request.caller;
}
