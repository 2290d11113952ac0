import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import type { MenuItem, SystemConfig, UserDetails } from '../../common/api/types';
import { ADMIN, Client, login, MEMBER, postLoginForm, solveCaptcha, startServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('session and login', () => {
  it('serves the system config without a session', async () => {
    const res = await new Client(server.baseUrl).get<{ data: SystemConfig }>(API.systemConfig);
    expect(res.status).toBe(200);
    expect(res.body.data.brandName).toBe('演示企业云盘');
    expect(res.body.data.logo).toMatch(/^\/api\/v2\/defaultConfig\/logo/);
    const logo = await new Client(server.baseUrl).raw(res.body.data.logo);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toContain('image/svg+xml');
    expect(await logo.text()).toContain('<svg');
  });

  it('answers 401 {errorCode, errorMessage} on protected routes without a session', async () => {
    const client = new Client(server.baseUrl);
    for (const [method, path] of [
      ['POST', API.fileList],
      ['GET', API.menu],
      ['POST', API.userDetails],
      ['GET', API.uploadConfig],
    ] as const) {
      const res = await client.request(method, path, method === 'POST' ? { parentId: null, category: 1 } : undefined);
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ errorCode: ERRORS.UNAUTHORIZED.code, errorMessage: ERRORS.UNAUTHORIZED.message });
    }
  });

  it('logs in with a solved captcha and sets an httpOnly SameSite=Lax session cookie', async () => {
    const client = new Client(server.baseUrl);
    const res = await login(server, client, ADMIN);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ passwordChangeType: 0, homeUrl: '/main/file/personal' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/); // plain http here
    const details = await client.post<{ data: UserDetails }>(API.userDetails);
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ website: 'admin', nickName: '管理员', role: 'admin', avatar: '', usedSize: 0 });
    expect(details.body.data.quota).toBeGreaterThan(0);
  });

  it('answers a wrong password and an unknown user identically', async () => {
    const wrong = await login(server, new Client(server.baseUrl), { username: 'admin', password: 'Wrong@2024' });
    const unknown = await login(server, new Client(server.baseUrl), { username: 'nobody', password: 'Wrong@2024' });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body).toEqual({ errorCode: ERRORS.LOGIN_FAILED.code, errorMessage: ERRORS.LOGIN_FAILED.message });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith('sid=') && c !== 'sid=')).toBe(false);
  });

  it('requires a captcha', async () => {
    const res = await postLoginForm(new Client(server.baseUrl), { username: 'admin', password: encryptPassword(ADMIN.password) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_REQUIRED.code });
  });

  it('refuses a wrong captcha answer, and the captcha is then used up', async () => {
    const client = new Client(server.baseUrl);
    const { captchaId, answer } = await solveCaptcha(server, client);
    const form = { username: 'admin', password: encryptPassword(ADMIN.password), captchaId };
    const wrong = await postLoginForm(client, { ...form, captchaCode: answer === 'abcd' ? 'abce' : 'abcd' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
    const right = await postLoginForm(client, { ...form, captchaCode: answer });
    expect(right.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
  });

  it('refuses a replayed login request (captcha is single use)', async () => {
    const { captchaId, answer } = await solveCaptcha(server, new Client(server.baseUrl));
    const form = { username: 'admin', password: encryptPassword(ADMIN.password), captchaId, captchaCode: answer.toUpperCase() };
    const first = await postLoginForm(new Client(server.baseUrl), form);
    expect(first.status).toBe(200);
    const replay = await postLoginForm(new Client(server.baseUrl), form);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
  });

  it('gates a member with an initial password until it is changed', async () => {
    const client = new Client(server.baseUrl);
    const res = await login(server, client, MEMBER);
    expect(res.status).toBe(200);
    expect(res.body.data.passwordChangeType).toBe(1);

    const gated = await client.post(API.fileList, { parentId: null, category: 1 });
    expect(gated.status).toBe(400);
    expect(gated.body).toEqual({
      errorCode: ERRORS.PASSWORD_CHANGE_REQUIRED.code,
      errorMessage: ERRORS.PASSWORD_CHANGE_REQUIRED.message,
    });
    expect((await client.post(API.mkdir, { parentId: null, category: 1, name: 'x' })).status).toBe(400);
    expect((await client.get(API.uploadConfig)).body).toMatchObject({ errorCode: ERRORS.PASSWORD_CHANGE_REQUIRED.code });

    // What the change-password screen needs stays reachable.
    const details = await client.post<{ data: UserDetails }>(API.userDetails);
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ website: 'member', nickName: '张三', role: 'member' });
    const menu = await client.get<{ data: MenuItem[] }>(API.menu);
    expect(menu.status).toBe(200);
    // Members do not get the admin-only system management entry.
    expect(menu.body.data.map((m) => m.url)).not.toContain('/main/system');
    expect(menu.body.data.map((m) => m.url)).toContain('/main/group');
    expect((await client.get(API.tenantConfig)).status).toBe(200);
    expect((await client.get(API.systemConfig)).status).toBe(200);
  });

  it('logs out (session gone) and logout works without a session', async () => {
    const client = new Client(server.baseUrl);
    await login(server, client, ADMIN);
    const token = client.cookie;
    expect((await client.get(API.menu)).status).toBe(200);
    const out = await client.post(API.logout);
    expect(out.status).toBe(200);
    // Even with the old cookie re-sent, the session no longer exists.
    client.cookie = token;
    expect((await client.get(API.menu)).status).toBe(401);
    expect((await new Client(server.baseUrl).post(API.logout)).status).toBe(200);
  });

  it('refuses writes whose Origin is another site', async () => {
    const client = new Client(server.baseUrl);
    await login(server, client, ADMIN);
    const evil = await client.request('POST', API.mkdir, { parentId: null, category: 1, name: 'evil' }, { origin: 'https://evil.example' });
    expect(evil.status).toBe(400);
    expect(evil.body).toMatchObject({ errorCode: ERRORS.BAD_ORIGIN.code });
    const same = await client.request('POST', API.mkdir, { parentId: null, category: 1, name: 'same-origin' }, { origin: server.baseUrl });
    expect(same.status).toBe(200);
  });

  it('issues svg captchas that expire in 300 s', async () => {
    const res = await new Client(server.baseUrl).get<{ data: { captchaId: string; image: string; expiresIn: number } }>(API.captcha);
    expect(res.status).toBe(200);
    expect(res.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(res.body.data.image.split(',')[1]!, 'base64').toString()).toContain('<svg');
    expect(res.body.data.expiresIn).toBe(300);
  });
});
