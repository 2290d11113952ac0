import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { SPEC_CALLS } from '../../common/api/spec-calls';
import { names } from './file-kit';
import { type Client, startServerAsAdmin, type TestServer } from './helpers';

/**
 * Issue 19: each route takes the encoding spec §7 gives it — JSON by default, form where stated —
 * and refuses the other one (415 REQ-2010) before anything runs.
 */
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
});
afterAll(async () => {
  await server.close();
});

describe('body encodings', () => {
  it('a form-encoded body to a JSON route is refused and changes nothing', async () => {
    const name = `form-${Date.now()}`;
    const res = await admin.raw(API.mkdir, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ parentId: '', category: '1', name }).toString(),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
    expect(await names(admin, null)).not.toContain(name);
    const multipart = new FormData();
    multipart.set('name', name);
    const res2 = await admin.raw(API.rename, { method: 'POST', body: multipart });
    expect(res2.status).toBe(415);
    await res2.arrayBuffer();
  });

  it('a JSON body to the form-encoded login is refused', async () => {
    const res = await fetch(server.baseUrl + API.login, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'x', captchaId: 'x', captchaCode: 'x' }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ errorCode: ERRORS.BODY_ENCODING_UNSUPPORTED.code });
  });

  it('every served route declares the encoding §7 gives it (form routes say so; the rest take JSON)', async () => {
    const formRoutes = server.app.apiRoutes.filter((r) => r.config.bodyEncoding === 'form').map((r) => `${r.method} ${r.url}`);
    const served = new Set(server.app.apiRoutes.map((r) => `${r.method} ${r.url}`));
    const specForm = SPEC_CALLS.filter((c) => c.encoding === 'form' && c.path && served.has(`${c.method} ${c.path.split('?')[0]}`)).map(
      (c) => `${c.method} ${c.path!.split('?')[0]}`,
    );
    expect(formRoutes.sort()).toEqual(specForm.sort());
  });
});
