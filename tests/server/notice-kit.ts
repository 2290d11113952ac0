import { expect } from 'vitest';
import type { NoticeSaveRequest } from '../../common/api/endpoints/notices';
import type { FileMessage, FileMessagePage, FileMessageType, ManagedNotice, UnreadCounts } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import type { Answer, Client } from './helpers';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** `POST /api/fileMsg/list` (form) with these fields. */
export async function listMessages(client: Client, fields: Record<string, string> = {}, path: string = API.fileMsgList): Promise<FileMessagePage> {
  const answer = await postForm<{ data: FileMessagePage }>(client, path, fields);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

export async function postForm<T>(client: Client, path: string, fields: Record<string, string>): Promise<Answer<T>> {
  const res = await client.raw(path, { method: 'POST', headers: FORM, body: new URLSearchParams(fields).toString() });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

/**
 * The messages of one type someone has, once `count` of them arrived (they are written after the answer
 * that caused them), or what there is after 10 s.
 */
export async function messagesOf(who: { client: Client }, type: FileMessageType, count = 1): Promise<FileMessage[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await allMessages(who.client)).filter((m) => m.type === type);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every message of the client (all pages). */
export async function allMessages(client: Client, fields: Record<string, string> = {}): Promise<FileMessage[]> {
  const out: FileMessage[] = [];
  let cursor: string | null = null;
  do {
    const page: FileMessagePage = await listMessages(client, { ...fields, pageSize: '200', ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export async function counts(client: Client): Promise<UnreadCounts> {
  const res = await client.get<{ data: UnreadCounts }>(API.noticeUnreadCount);
  expect(res.status).toBe(200);
  return res.body.data;
}

export function noticeRequest(extra: Partial<NoticeSaveRequest> = {}): NoticeSaveRequest {
  return {
    title: '系统维护通知',
    content: '<p>本周六 <strong>22:00</strong> 维护。</p>',
    audience: { all: true, departmentIds: [], userIds: [] },
    important: false,
    pinned: false,
    publish: 'now',
    ...extra,
  };
}

export async function saveNotice(client: Client, extra: Partial<NoticeSaveRequest> = {}): Promise<ManagedNotice> {
  const res = await client.post<{ data: ManagedNotice }>(API.noticeManageSave, noticeRequest(extra));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export interface StreamEvent {
  event: string;
  data: unknown;
  at: number;
}

/** An open notice stream of a client: its events as they come, parsed. */
export interface OpenStream {
  events: StreamEvent[];
  /** Resolves with the first event (from `since` on) that matches, or rejects after `timeoutMs`. */
  next(match: (e: StreamEvent) => boolean, timeoutMs?: number, since?: number): Promise<StreamEvent>;
  /** Resolves when the server has closed the stream. */
  closed: Promise<void>;
  close(): void;
}

export async function openStream(client: Client): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await client.raw(API.noticeStream, { signal: abort.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const closed = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) events.push({ event, data: JSON.parse(data), at: Date.now() });
          for (const w of waiters) w();
        }
      }
    } catch {
      // aborted by close()
    }
    for (const w of waiters) w();
  })();
  let ended = false;
  void closed.then(() => (ended = true));
  return {
    events,
    closed,
    close: () => abort.abort(),
    next(match, timeoutMs = 2000, since = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = events.slice(since).find(match);
          if (hit) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(hit);
          } else if (ended) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream closed; events: ${JSON.stringify(events.map((e) => e.event))}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; events: ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
