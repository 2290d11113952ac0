import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/database';

/**
 * What every domain builder may take by name: the database (handed to the domain's repositories,
 * which alone touch it), the settings and the app's log.
 */
export interface Base {
  db: Db;
  config: ServerConfig;
  log: FastifyBaseLogger;
}

/** A built domain's routes: app.ts calls this once per domain, so a new route changes only its domain's file. */
export interface Routed {
  routes(app: FastifyInstance): void | Promise<void>;
}
