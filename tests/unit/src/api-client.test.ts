import { describe, expect, it, vi } from 'vitest';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../../common/api/client-env';
import { ERRORS } from '../../../common/api/errors';
import { ApiCallError } from '../../../common/api/failure';
import { createApiClient, type ApiClientDeps, type CurrentLocation } from '../../../src/lib/api-client';
import { Type } from 'typebox';
import { data, endpoint } from '../../../common/api/endpoint';

interface Call {
  url: string;
  init: RequestInit;
}

function harness(status: number, body: unknown, location: CurrentLocation = { pathname: '/main/file/personal', search: '' }, onGestureLocked?: () => void) {
  const calls: Call[] = [];
  const fetchFn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  const navigate = vi.fn<(to: string) => void>();
  const error = vi.fn<(text: string, seconds: number) => void>();
  const logoutBox = vi.fn<ApiClientDeps['notify']['logoutBox']>();
  const client = createApiClient({
    fetch: fetchFn as unknown as typeof fetch,
    navigate,
    notify: { error, logoutBox },
    platform: 'web',
    networkEnv: 'internal',
    location: () => location,
    onGestureLocked,
  });
  return { client, calls, navigate, error, logoutBox };
}

async function failure(p: Promise<unknown>): Promise<ApiCallError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiCallError);
    return e as ApiCallError;
  }
  throw new Error('expected the call to fail');
}

describe('api client: success', () => {
  it('unwraps {data} and sends JSON POST with headers and credentials', async () => {
    const h = harness(200, { data: { items: [1, 2] } });
    await expect(h.client.post('/api/file/list', { parentId: null })).resolves.toEqual({ items: [1, 2] });
    const { url, init } = h.calls[0]!;
    expect(url).toBe('/api/file/list');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    const headers = init.headers as Record<string, string>;
    expect(headers[HEADER_PLATFORM]).toBe('web');
    expect(headers[HEADER_NETWORK_ENV]).toBe('internal');
    expect(headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ parentId: null }));
  });

  it('sends GET without a body, with headers, credentials and the query', async () => {
    const h = harness(200, { data: 'x' });
    await h.client.get('/api/menu/get', { query: { a: 1, b: 'c d', skip: undefined } });
    const { url, init } = h.calls[0]!;
    expect(url).toBe('/api/menu/get?a=1&b=c+d');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect(init.credentials).toBe('include');
    expect((init.headers as Record<string, string>)[HEADER_PLATFORM]).toBe('web');
  });

  it('form-encodes when asked (and appends to a path that already has a query)', async () => {
    const h = harness(200, { data: { passwordChangeType: 0 } });
    await h.client.postForm('/spacex/login?ajax=true', { username: 'admin', password: 'a+b/c=', captchaId: 'id 1', captchaCode: '12' });
    const { url, init } = h.calls[0]!;
    expect(url).toBe('/spacex/login?ajax=true');
    expect((init.headers as Record<string, string>)['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    const params = new URLSearchParams(init.body as string);
    expect(Object.fromEntries(params)).toEqual({ username: 'admin', password: 'a+b/c=', captchaId: 'id 1', captchaCode: '12' });
    expect(init.credentials).toBe('include');
  });

  it('marks the desktop platform and public network in the headers', async () => {
    const calls: RequestInit[] = [];
    const client = createApiClient({
      fetch: (async (_u: unknown, init?: RequestInit) => {
        calls.push(init!);
        return new Response('{"data":1}', { status: 200 });
      }) as unknown as typeof fetch,
      navigate: () => undefined,
      notify: { error: () => undefined, logoutBox: () => undefined },
      platform: 'desktop',
      networkEnv: 'public',
      location: () => ({ pathname: '/', search: '' }),
    });
    await client.get('/x');
    expect(calls[0]!.headers).toMatchObject({ [HEADER_PLATFORM]: 'desktop', [HEADER_NETWORK_ENV]: 'public' });
  });
});

describe('api client: spec §8 default reactions', () => {
  it('400 + 400sec-core-301: shows the 登出 box, then goes to /login', async () => {
    const h = harness(400, { errorCode: '400sec-core-301', errorMessage: '您的账号已在别处登录' });
    const e = await failure(h.client.post('/api/file/list', {}));
    expect(e.failure.kind).toBe('sessionTerminated');
    expect(h.logoutBox).toHaveBeenCalledTimes(1);
    const box = h.logoutBox.mock.calls[0]![0];
    expect(box).toMatchObject({ title: '登出', content: '您的账号已在别处登录', okText: '退出' });
    expect(h.navigate).not.toHaveBeenCalled();
    box.onOk();
    expect(h.navigate).toHaveBeenCalledWith('/login');
    expect(h.error).not.toHaveBeenCalled();
  });

  it('shows one 登出 box even when several calls fail together', async () => {
    const h = harness(400, { errorCode: '400sec-core-301', errorMessage: 'x' });
    await Promise.allSettled([h.client.get('/a'), h.client.get('/b')]);
    expect(h.logoutBox).toHaveBeenCalledTimes(1);
  });

  it('other 400: error toast with errorMessage for 3 seconds', async () => {
    const h = harness(400, { errorCode: 'FILE-3004', errorMessage: '当前目录下已存在同名文件或文件夹' });
    const e = await failure(h.client.post('/api/file/mkdir', {}));
    expect(e.errorCode).toBe('FILE-3004');
    expect(h.error).toHaveBeenCalledWith('当前目录下已存在同名文件或文件夹', 3);
    expect(h.navigate).not.toHaveBeenCalled();
    expect(h.logoutBox).not.toHaveBeenCalled();
  });

  it('401: goes to /login', async () => {
    const h = harness(401, { errorCode: 'AUTH-401', errorMessage: '未登录' });
    await failure(h.client.get('/api/menu/get'));
    expect(h.navigate).toHaveBeenCalledWith('/login');
    expect(h.error).not.toHaveBeenCalled();
  });

  it('401 from a share link: /login?redirect=<current url>', async () => {
    const h = harness(401, {}, { pathname: '/openShareLink', search: '?x=1' });
    await failure(h.client.get('/api/menu/get'));
    expect(h.navigate).toHaveBeenCalledWith('/login?redirect=' + encodeURIComponent('/openShareLink?x=1'));
    const h2 = harness(401, {}, { pathname: '/shareLink', search: '' });
    await failure(h2.client.get('/api/menu/get'));
    expect(h2.navigate).toHaveBeenCalledWith('/login?redirect=%2FshareLink');
  });

  it('a second 401 arriving on /login stays there, keeping the share link redirect', async () => {
    const h = harness(401, {}, { pathname: '/login', search: '?redirect=%2FshareLink' });
    await failure(h.client.get('/api/menu/get'));
    expect(h.navigate).not.toHaveBeenCalled();
  });

  it('500 + DEP10213: goes to /downloadExceeded', async () => {
    const h = harness(500, { errorCode: 'DEP10213', message: '下载次数已超过限制' });
    await failure(h.client.get('/api/file/download/1'));
    expect(h.navigate).toHaveBeenCalledWith('/downloadExceeded');
    expect(h.error).not.toHaveBeenCalled();
  });

  it('other 500: toast with message (or errorMessage) for 3 seconds', async () => {
    const h = harness(500, { errorCode: 'SYS-5000', message: '服务器内部错误，请稍后重试' });
    await failure(h.client.get('/x'));
    expect(h.error).toHaveBeenCalledWith('服务器内部错误，请稍后重试', 3);
    const h2 = harness(500, { errorCode: 'SYS-5000', errorMessage: '备用信息' });
    await failure(h2.client.get('/x'));
    expect(h2.error).toHaveBeenCalledWith('备用信息', 3);
  });

  it('other statuses (418) are ignored but still throw', async () => {
    const h = harness(418, { errorCode: 'TEAPOT' });
    const e = await failure(h.client.get('/x'));
    expect(e.failure).toEqual({ kind: 'ignored', status: 418 });
    expect(h.navigate).not.toHaveBeenCalled();
    expect(h.error).not.toHaveBeenCalled();
    expect(h.logoutBox).not.toHaveBeenCalled();
  });

  it("a caller's onError replaces the default reaction", async () => {
    const h = harness(400, { errorCode: 'AUTH-1003', errorMessage: '验证码错误' });
    const onError = vi.fn();
    const e = await failure(h.client.post('/spacex/login?ajax=true', {}, { onError }));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toEqual({ kind: 'badRequest', errorCode: 'AUTH-1003', errorMessage: '验证码错误' });
    expect(onError.mock.calls[0]![1]).toBe(e);
    expect(h.error).not.toHaveBeenCalled();

    const h401 = harness(401, {});
    await failure(h401.client.get('/x', { onError: () => undefined }));
    expect(h401.navigate).not.toHaveBeenCalled();
  });

  it('quietCodes silence only the listed 400 codes; the body stays on the error', async () => {
    const conflict = { errorCode: 'FILE-3013', errorMessage: '目标位置存在同名文件', conflicts: [{ id: 'a' }] };
    const h = harness(400, conflict);
    const e = await failure(h.client.post('/api/v2/file/move', {}, { quietCodes: ['FILE-3013'] }));
    expect(e.errorCode).toBe('FILE-3013');
    expect(e.body).toEqual(conflict);
    expect(h.error).not.toHaveBeenCalled();

    const other = harness(400, { errorCode: 'FILE-3011', errorMessage: '不能移动到自身' });
    await failure(other.client.post('/api/v2/file/move', {}, { quietCodes: ['FILE-3013'] }));
    expect(other.error).toHaveBeenCalledWith('不能移动到自身', 3);

    const unauthorized = harness(401, {});
    await failure(unauthorized.client.post('/api/v2/file/move', {}, { quietCodes: ['FILE-3013'] }));
    expect(unauthorized.navigate).toHaveBeenCalledWith('/login');
  });

  it('an answer that is not JSON is still classified', async () => {
    const calls: string[] = [];
    const navigate = vi.fn();
    const client = createApiClient({
      fetch: (async (u: unknown) => {
        calls.push(String(u));
        return new Response('<html>gateway</html>', { status: 401 });
      }) as unknown as typeof fetch,
      navigate,
      notify: { error: () => undefined, logoutBox: () => undefined },
      platform: 'web',
      networkEnv: 'internal',
      location: () => ({ pathname: '/main', search: '' }),
    });
    await expect(client.get('/x')).rejects.toBeInstanceOf(ApiCallError);
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('api client: call(entry, input)', () => {
  const post = endpoint({ method: 'POST', path: '/api/x/create', access: 'member', action: null, body: Type.Object({ name: Type.String() }), response: data<{ id: string }>() });
  const get = endpoint({ method: 'GET', path: '/api/x/get', access: 'member', action: null, query: Type.Object({ id: Type.String() }), response: data<string>() });
  const form = endpoint({ method: 'POST', path: '/spacex/x?ajax=true', access: 'public', action: null, encoding: 'form', body: Type.Object({ a: Type.String() }), response: data<null>() });
  const byId = endpoint({ method: 'GET', path: '/api/x/item/:id', access: 'member', action: null, params: Type.Object({ id: Type.String() }), response: data<number>() });
  const bare = endpoint({ method: 'POST', path: '/api/x/list', access: 'member', action: null, response: data<string[]>() });

  it('takes method, path and encoding from the entry: JSON body, query string, form fields, path parameters', async () => {
    const h = harness(200, { data: { id: '7' } });
    await expect(h.client.call(post, { name: 'n' })).resolves.toEqual({ id: '7' });
    await h.client.call(get, { id: 'a b' });
    await h.client.call(form, { a: '1' });
    await h.client.call(byId, undefined, { params: { id: 'x/y' } });
    await h.client.call(bare);
    const sent = h.calls.map((c) => [c.init.method, c.url, (c.init.headers as Record<string, string>)['Content-Type'] ?? null, c.init.body ?? null]);
    expect(sent).toEqual([
      ['POST', '/api/x/create', 'application/json', '{"name":"n"}'],
      ['GET', '/api/x/get?id=a+b', null, null],
      ['POST', '/spacex/x?ajax=true', 'application/x-www-form-urlencoded;charset=UTF-8', 'a=1'],
      ['GET', '/api/x/item/x%2Fy', null, null],
      ['POST', '/api/x/list', 'application/json', '{}'],
    ]);
  });

  it('refuses a path parameter left out', async () => {
    const h = harness(200, { data: 1 });
    await expect(h.client.call(byId, undefined, { params: {} })).rejects.toThrow(/missing path parameter id/);
    expect(h.calls).toHaveLength(0);
  });
});

describe('api client: call(entry) with a raw body', () => {
  const raw = endpoint({ method: 'POST', path: '/api/x/sheet', access: 'admin', action: null, encoding: 'raw', query: Type.Object({ name: Type.String() }), response: data<number>() });

  it('sends the Blob as the body and the input as the query', async () => {
    const h = harness(200, { data: 3 });
    await expect(h.client.call(raw, { name: 'a.csv' }, { raw: new Blob(['x,y']) })).resolves.toBe(3);
    const { url, init } = h.calls[0]!;
    expect([init.method, url, (init.headers as Record<string, string>)['Content-Type']]).toEqual(['POST', '/api/x/sheet?name=a.csv', 'application/octet-stream']);
    expect(await (init.body as Blob).text()).toBe('x,y');
  });
});

describe('api client: the session\'s gesture lock is up', () => {
  const locked = { errorCode: ERRORS.GESTURE_LOCKED.code, errorMessage: ERRORS.GESTURE_LOCKED.message };
  it('tells the app (which shows its lock screen) instead of a toast', async () => {
    const onLocked = vi.fn();
    const h = harness(400, locked, undefined, onLocked);
    expect((await failure(h.client.post('/api/file/list', {}))).errorCode).toBe(ERRORS.GESTURE_LOCKED.code);
    expect(onLocked).toHaveBeenCalledTimes(1);
    expect(h.error).not.toHaveBeenCalled();
  });
  it('tells it also when the caller handles its own errors', async () => {
    const onLocked = vi.fn();
    const own = vi.fn();
    const h = harness(400, locked, undefined, onLocked);
    await failure(h.client.post('/api/file/list', {}, { onError: own }));
    expect(onLocked).toHaveBeenCalledTimes(1);
    expect(own).toHaveBeenCalledTimes(1);
  });
});
