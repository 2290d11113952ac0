import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';
import { notifyThrough, PgEventBus } from '../db/pg-event-bus';
import { PgLeadership } from '../db/pg-leadership';
import { InProcessEventBus, SoleLeadership } from '../services/cluster/in-process';
import type { EventBus, Leadership } from '../services/cluster/ports';

/**
 * What the server processes share beyond the database's rows (services/cluster/ports.ts): on SQLite
 * (one process) the in-process bus and a sole leader; with DB_URL, LISTEN/NOTIFY and an advisory lock.
 */
export interface Cluster {
  bus: EventBus;
  leadership: Leadership;
  /** Listens and competes for the lead until `signal` aborts. */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves when the leader's work and the listener have ended (after the signal aborted). */
  stopped(): Promise<void>;
}

export function buildCluster({ config, db, log }: { config: ServerConfig; db: Db; log: FastifyBaseLogger }): Cluster {
  if (!config.dbUrl) {
    const bus = new InProcessEventBus((err) => log.error({ err }, 'event handler failed'));
    const leadership = new SoleLeadership((err, message) => log.error({ err }, message));
    return {
      bus,
      leadership,
      async start(signal) {
        leadership.start(signal);
      },
      stopped: () => leadership.stopped(),
    };
  }
  const bus = new PgEventBus(config.dbUrl, notifyThrough(db as unknown as Kysely<unknown>), log, { reconnectMs: config.testListenerReconnectMs });
  const leadership = new PgLeadership(config.dbUrl, log);
  return {
    bus,
    leadership,
    async start(signal) {
      await bus.start(signal);
      leadership.start(signal);
    },
    async stopped() {
      await Promise.all([leadership.stopped(), bus.stopped()]);
    },
  };
}
