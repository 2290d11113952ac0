import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { TSchema } from 'typebox';
import type { AnyEndpoint, BodyOf, DataOf, ParamsOf, QueryOf } from '../../common/api/endpoint';
import { routePath } from '../../common/api/endpoint';
import type { ApiOk } from '../../common/api/envelope';

/** The request a handler of `E` gets: body, query and params typed from the declaration, and validated. */
export type EndpointRequest<E extends AnyEndpoint> = FastifyRequest<{
  /** Without a body schema the body is not validated (raw bodies, calls that take none): unknown. */
  Body: E['body'] extends TSchema ? BodyOf<E> : unknown;
  Querystring: QueryOf<E>;
  Params: ParamsOf<E>;
}>;

/**
 * What a handler returns: the `{ data }` envelope its declaration names, or the reply it sent itself
 * (a body written pre-serialised, like syn/content's one item per line); for bytes endpoints, anything.
 */
export type EndpointResult<E extends AnyEndpoint> = E['response'] extends { kind: 'data' } ? ApiOk<DataOf<E>> | FastifyReply : unknown;

export type EndpointHandler<E extends AnyEndpoint> = (request: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointResult<E>>;

/**
 * Route options an endpoint may add that are the server's business, not the contract's: hooks run
 * before the handler (a raw body's parser, a rate limit), a larger body limit. `exposeHeadRoute:
 * false` on a GET whose HEAD is declared as an entry of its own (method 'HEAD', its own handler):
 * Fastify's automatic HEAD would otherwise run the GET's handler (and refuse the declared one).
 */
export type EndpointRouteOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'preHandler' | 'preValidation' | 'onRequest' | 'preParsing' | 'exposeHeadRoute' | 'logLevel'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration the route was registered from (server/http/endpoint-route.ts). */
    endpoint?: AnyEndpoint;
  }
}

/**
 * Registers the route of a declared endpoint: its method and path, its schemas for Fastify to
 * validate with, the guard's flags from `access`, the body encoding, and the declaration itself
 * (the action log, the route registry and the coverage table read it from the route's config).
 */
export function route<E extends AnyEndpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>, options: EndpointRouteOptions = {}): void {
  const schema: Record<string, unknown> = {};
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.params) schema.params = endpoint.params;
  app.route({
    ...options,
    method: endpoint.method,
    url: routePath(endpoint),
    schema,
    config: {
      public: endpoint.access === 'public' || undefined,
      adminOnly: endpoint.access === 'admin' || undefined,
      allowDuringPasswordChange: endpoint.access === 'duringPasswordChange' || undefined,
      allowWhileGestureLocked: endpoint.whileGestureLocked || undefined,
      bodyEncoding: endpoint.encoding === 'form' ? 'form' : undefined,
      endpoint,
    },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
