import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { Client, startServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, (app) => {
    // A public route that fails unexpectedly, to see what the error handler lets out.
    app.get('/api/test/boom', { config: { public: true } }, async () => {
      throw new Error('secret internal detail at /srv/x.ts:12');
    });
  });
});
afterAll(async () => {
  await server.close();
});

describe('error handler', () => {
  it('answers an unexpected error with 500 {errorCode, message} and no details', async () => {
    const res = await new Client(server.baseUrl).get('/api/test/boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ errorCode: ERRORS.INTERNAL.code, message: ERRORS.INTERNAL.message });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('answers malformed JSON with 400 REQ-2001', async () => {
    const client = new Client(server.baseUrl);
    const res = await client.request('POST', '/api/v2/defaultConfig/system/get', undefined);
    expect(res.status).toBe(401); // unknown route without session: the guard answers first
    // A public JSON route (the form-encoded login refuses JSON bodies outright: body-encoding.test.ts).
    const bad = await client.raw(API.smsValidate, { method: 'POST', headers: { 'content-type': 'application/json', [HEADER_PLATFORM]: 'web' }, body: '{bad' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });
});
