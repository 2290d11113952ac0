import type { FastifyContextConfig, FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  config: Pick<FastifyContextConfig, 'public' | 'allowDuringPasswordChange' | 'adminOnly' | 'bodyEncoding' | 'endpoint'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every API route with the guard options it was declared with (the access-matrix test walks it). */
    apiRoutes: RegisteredRoute[];
    /**
     * Every route, the web app's files and the desktop releases included: each comes from an endpoint
     * declaration or is one of the few listed with their reason (tests/server/endpoint-declarations.test.ts).
     */
    allRoutes: RegisteredRoute[];
  }
}

const isApiUrl = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/spacex/');

/** Must run before any route is declared: Fastify calls onRoute hooks only for later routes. */
export function installRouteRegistry(app: FastifyInstance): void {
  const api: RegisteredRoute[] = [];
  const all: RegisteredRoute[] = [];
  app.decorate('apiRoutes', api);
  app.decorate('allRoutes', all);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are added by Fastify itself and share their handler and options
      // (their config names the GET's declaration); a HEAD declared as an entry of its own is listed.
      if (method === 'HEAD' && !Array.isArray(route.method) && config.endpoint?.method !== 'HEAD') continue;
      const registered: RegisteredRoute = {
        method,
        url: route.url,
        config: {
          public: config.public,
          allowDuringPasswordChange: config.allowDuringPasswordChange,
          adminOnly: config.adminOnly,
          bodyEncoding: config.bodyEncoding,
          endpoint: config.endpoint,
        },
      };
      all.push(registered);
      if (isApiUrl(route.url)) api.push(registered);
    }
  });
}
