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
  }
}

/** Must run before any route is declared: Fastify calls onRoute hooks only for later routes. */
export function installRouteRegistry(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') && !route.url.startsWith('/spacex/')) return;
    const config = (route.config ?? {}) as FastifyContextConfig;
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are added by Fastify itself and share their handler and options
      // (their config names the GET's declaration); a HEAD declared as an entry of its own is listed.
      if (method === 'HEAD' && !Array.isArray(route.method) && config.endpoint?.method !== 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        config: {
          public: config.public,
          allowDuringPasswordChange: config.allowDuringPasswordChange,
          adminOnly: config.adminOnly,
          bodyEncoding: config.bodyEncoding,
          endpoint: config.endpoint,
        },
      });
    }
  });
}
