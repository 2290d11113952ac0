import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../http/session-cookie';
import type { AuthService } from '../services/auth-service';
import type { DavAuthenticate } from './context';

/**
 * TEMPORARY (issue 39): until davpw's device passwords (server/dav/dav-auth.ts) land, /dav/ accepts
 * the web session's cookie, with the session guard's own rules (ended sessions, forced password
 * change). davpw replaces this with Basic auth over TLS; nothing else changes (DavAuthenticate).
 */
export function interimSessionAuth(auth: AuthService): DavAuthenticate {
  const refusal = (body: string) => ({ ok: false as const, status: 401, headers: { 'WWW-Authenticate': 'Basic realm="cloud-drive", charset="UTF-8"' }, body });
  return async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return refusal('需要登录\n');
    const session = await auth.authenticate(token, Date.now(), request.ip);
    if (session.kind !== 'valid') return refusal('登录已失效\n');
    if (session.caller.passwordChangeType !== 0) return { ok: false, status: 403, headers: {}, body: '请先在网页端修改密码\n' };
    return { ok: true, caller: session.caller };
  };
}
