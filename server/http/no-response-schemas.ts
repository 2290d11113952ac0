import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

/**
 * Fastify's serializer compiler in place of its default (fast-json-stringify), which Fastify loads at
 * every start (~7 % of a start's CPU) though no route here declares a response schema: answers are
 * typed by their endpoint declarations (common/api/endpoints) and sent with JSON.stringify. A route
 * given a response schema makes the server refuse to start, saying so, instead of sending it
 * unfiltered: to use one, put Fastify's default back here (`@fastify/fast-json-stringify-compiler`).
 */
export const noResponseSchemas: SerializerFactory = () => (route) => {
  throw new Error(`response schemas are not used by this server (${route.method} ${route.url}): see server/http/no-response-schemas.ts`);
};
