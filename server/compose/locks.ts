import type { FastifyBaseLogger } from 'fastify';
import { DEFAULTS, type ServerConfig } from '../config';
import { AdvisoryLocks } from '../db/advisory-locks';
import { ProcessLocks, type Locks } from '../services/locks';

/**
 * The server's locks (services/locks.ts), chosen once here: on PostgreSQL (DB_URL) N processes may
 * share the database, so keys are held as PostgreSQL advisory locks on a lock connection of this
 * process (db/advisory-locks.ts); on SQLite the one process keeps them in memory.
 */
export function buildLocks({ config, log }: { config: ServerConfig; log: FastifyBaseLogger }): Locks {
  return config.dbUrl ? new AdvisoryLocks(config.dbUrl, { warn: (obj, msg) => log.warn(obj, msg) }, config.lockLeaseMs ?? DEFAULTS.lockLeaseMs) : new ProcessLocks();
}
