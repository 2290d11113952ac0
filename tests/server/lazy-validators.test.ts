import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../common/api/paths';
import { Client, startServer, type TestServer } from './helpers';

/**
 * Route schemas are compiled when their route first validates a request, not while the server starts
 * (~22 % of a start's CPU went to compiling ~200 routes' schemas): a start compiles none, a request
 * compiles its own route's, and every declared schema still compiles (checked here, since a start no
 * longer does). No route has a response schema, so Fastify's serializer compiler is not loaded either.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

describe('route schemas compiled on first use', () => {
  it('a started server has compiled none; a request compiles its route’s schemas only', async () => {
    expect(server.app.validators.registered()).toBeGreaterThan(100);
    expect(server.app.validators.compiled()).toBe(0);
    // A query without its fields: refused by the route's query schema, compiled for this request.
    const res = await new Client(server.baseUrl).request('GET', API.captchaValidate);
    expect(res.status).toBe(400);
    expect(server.app.validators.compiled()).toBeGreaterThan(0);
    expect(server.app.validators.compiled()).toBe(1);
  });

  it('every registered schema compiles', () => {
    expect(() => server.app.validators.compileAll()).not.toThrow();
    expect(server.app.validators.compiled()).toBe(server.app.validators.registered());
  });

  it('a route given a response schema stops the start, saying why (no serializer compiler is loaded)', async () => {
    await expect(
      startServer({}, (app) => {
        app.get('/api/test/answer-schema', { config: { public: true }, schema: { response: { 200: { type: 'object' } } } }, async () => ({}));
      }),
    ).rejects.toThrow(/response schemas are not used/);
  });
});
