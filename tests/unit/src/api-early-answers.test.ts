/**
 * `prefetch`: a request sent at boot, before the page that makes it has rendered. The page's identical
 * request takes that answer once, reacts to it as to its own, and asks again when there was none.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FILES } from '../../../common/api/endpoints/files';
import { ApiCallError } from '../../../common/api/failure';
import { createApiClient, EARLY_ANSWER_TTL_MS } from '../../../src/lib/api-client';

const LIST = { parentId: null, cursor: null };

/** A client whose fetch answers from `answers` in turn (a function: a network failure). */
function harness(answers: (() => Response | Promise<Response>)[]) {
  const sent: { url: string; body: unknown }[] = [];
  const fetchFn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), body: init?.body });
    const next = answers.shift();
    if (!next) throw new Error('no answer left');
    return next();
  });
  const navigate = vi.fn<(to: string) => void>();
  const client = createApiClient({
    fetch: fetchFn as unknown as typeof fetch,
    navigate,
    notify: { error: vi.fn(), logoutBox: vi.fn() },
    platform: 'web',
    networkEnv: 'internal',
    location: () => ({ pathname: '/main/file/personal', search: '' }),
  });
  return { client, sent, navigate };
}

const ok = (data: unknown) => () => new Response(JSON.stringify({ data }), { status: 200 });

afterEach(() => vi.useRealTimers());

describe('answers asked for early', () => {
  it('the identical request takes the early answer instead of asking again, once', async () => {
    const h = harness([ok({ items: ['early'] }), ok({ items: ['later'] })]);
    h.client.prefetch('/api/file/list', { body: LIST });
    expect(h.sent).toHaveLength(1);
    await expect(h.client.post('/api/file/list', LIST)).resolves.toEqual({ items: ['early'] });
    expect(h.sent).toHaveLength(1);
    await expect(h.client.post('/api/file/list', LIST)).resolves.toEqual({ items: ['later'] });
    expect(h.sent).toHaveLength(2);
  });

  it('another body, path or method is asked for as usual', async () => {
    const h = harness([ok('early'), ok('other body'), ok('other path'), ok('get')]);
    h.client.prefetch('/api/file/list', { body: LIST });
    await expect(h.client.post('/api/file/list', { ...LIST, cursor: 'c2' })).resolves.toBe('other body');
    await expect(h.client.post('/api/file/other', LIST)).resolves.toBe('other path');
    await expect(h.client.get('/api/file/list')).resolves.toBe('get');
    expect(h.sent).toHaveLength(4);
  });

  it('an error answer is acted on only by the request that takes it', async () => {
    const h = harness([() => new Response(JSON.stringify({ errorCode: '401', errorMessage: '' }), { status: 401 })]);
    h.client.prefetch('/api/file/list', { body: LIST });
    await new Promise((r) => setTimeout(r, 10));
    expect(h.navigate).not.toHaveBeenCalled();
    const error = await h.client.post('/api/file/list', LIST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(h.navigate).toHaveBeenCalledWith('/login');
  });

  it('an early request that got no answer is asked again by the taker', async () => {
    const h = harness([() => Promise.reject(new TypeError('Failed to fetch')), ok('second')]);
    h.client.prefetch('/api/file/list', { body: LIST });
    await expect(h.client.post('/api/file/list', LIST)).resolves.toBe('second');
    expect(h.sent).toHaveLength(2);
  });

  it('an answer older than the limit is not used', async () => {
    vi.useFakeTimers();
    const h = harness([ok('stale'), ok('fresh')]);
    h.client.prefetch('/api/file/list', { body: LIST });
    await vi.advanceTimersByTimeAsync(EARLY_ANSWER_TTL_MS + 1);
    await expect(h.client.post('/api/file/list', LIST)).resolves.toBe('fresh');
    expect(h.sent).toHaveLength(2);
  });

  it('the taker stops waiting when its signal aborts', async () => {
    let answer!: (r: Response) => void;
    const h = harness([() => new Promise<Response>((r) => (answer = r))]);
    h.client.prefetch('/api/file/list', { body: LIST });
    const controller = new AbortController();
    const taken = h.client.post('/api/file/list', LIST, { signal: controller.signal });
    controller.abort(new DOMException('left the page', 'AbortError'));
    await expect(taken).rejects.toThrow('left the page');
    answer(ok('late')());
  });

  it("prefetchCall sends the request api.call will make for the same entry and input, which takes its answer", async () => {
    const h = harness([ok({ items: ['early'], nextCursor: null }), ok({ items: [], nextCursor: null })]);
    const body = { parentId: null, category: 1, cursor: null };
    h.client.prefetchCall(FILES.list, body);
    await expect(h.client.call(FILES.list, body)).resolves.toEqual({ items: ['early'], nextCursor: null });
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.url).toBe(FILES.list.path);
    await expect(h.client.call(FILES.keywordList, { keyword: 'a' })).resolves.toEqual({ items: [], nextCursor: null });
    expect(h.sent[1]!.url).toBe(`${FILES.keywordList.path}?keyword=a`);
  });
});
