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
  }
  interface FastifyRequest {
    /** Set by the session guard; null on public routes without a session. */
    caller: Caller | null;
  }
}

export {};
