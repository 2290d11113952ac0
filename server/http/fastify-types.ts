import type { Caller } from '../services/caller';

/** Per-route options read by the session guard (see http/session-guard.ts). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session (login, captcha, system config, logo). */
    public?: boolean;
    /** Reachable while the initial password must still be changed (logout, details, config, menu). */
    allowDuringPasswordChange?: boolean;
    /** Only tenant administrators may call it; members get ERRORS.FORBIDDEN. */
    adminOnly?: boolean;
    /** Answers also while the session's 手势密码 lock is up (the lock screen's own calls). */
    allowWhileGestureLocked?: boolean;
    /**
     * 'form': the body is form-encoded (spec §7 says so for this call). Unset: JSON, the spec's
     * default. Either way the other encoding is refused (http/body-encoding.ts).
     */
    bodyEncoding?: 'form';
  }
  interface FastifyRequest {
    /** Set by the session guard; null on public routes without a session. */
    caller: Caller | null;
  }
}

export {};
