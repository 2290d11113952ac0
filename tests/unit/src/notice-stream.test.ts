import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileMessageEvent, NoticeStreamEnded, SystemNoticeEvent, UnreadCounts } from '../../../common/api/notices';
import {
  REOPEN_MS,
  STREAM_STALL_MS,
  startNoticeStream,
  type ChannelLike,
  type EventSourceLike,
  type LockManagerLike,
  type NoticeChannelMessage,
  type NoticeHandlers,
  type NoticeStream,
} from '../../../src/lib/notices/notice-stream';

/**
 * The tab-shared notice stream (src/lib/notices/notice-stream.ts) with its three edges faked: the
 * BroadcastChannel (an in-memory hub delivering on the fake clock), Web Locks (FIFO, released when a
 * tab stops) and EventSource (scripted by the test). Everything between them is the real code.
 */

const counts = (file: number, system = 0): UnreadCounts => ({ file, system, systemParts: { tenantNotices: system, platformNotices: 0 } });

function createHub(latencyMs = 5) {
  const members = new Set<(m: NoticeChannelMessage) => void>();
  return {
    channel(): ChannelLike {
      const listeners: Array<(e: MessageEvent<NoticeChannelMessage>) => void> = [];
      let closed = false;
      const self = (m: NoticeChannelMessage) => {
        if (!closed) for (const l of listeners) l({ data: structuredClone(m) } as MessageEvent<NoticeChannelMessage>);
      };
      members.add(self);
      return {
        postMessage(m) {
          if (closed) return;
          for (const other of members) if (other !== self) setTimeout(() => other(m), latencyMs);
        },
        addEventListener(_t, l) {
          listeners.push(l);
        },
        close() {
          closed = true;
          members.delete(self);
        },
      };
    },
  };
}

/** Web Locks, exclusive: one holder, the next waiter granted when the holder's callback settles. */
function createLocks(): LockManagerLike & { holderTab: () => string | null } {
  const queue: Array<{ tab: string; run: () => Promise<unknown>; signal: AbortSignal }> = [];
  let holding = false;
  const grant = () => {
    if (holding || queue.length === 0) return;
    holding = true;
    const head = queue[0]!;
    void Promise.resolve()
      .then(head.run)
      .finally(() => {
        queue.shift();
        holding = false;
        grant();
      });
  };
  return {
    request(_name, options, run) {
      return new Promise((resolve, reject) => {
        const entry = { tab: (options as { tab?: string }).tab ?? '', run: () => run().then(resolve, reject), signal: options.signal };
        queue.push(entry);
        options.signal.addEventListener('abort', () => {
          const i = queue.indexOf(entry);
          if (i > 0) {
            queue.splice(i, 1);
            reject(new DOMException('aborted', 'AbortError'));
          }
        });
        grant();
      });
    },
    holderTab: () => (holding ? (queue[0]?.tab ?? null) : null),
  };
}

class FakeSource implements EventSourceLike {
  readyState = 0;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private readonly listeners = new Map<string, Array<(e: MessageEvent<string>) => void>>();
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  emit(name: string, data: unknown): void {
    this.readyState = 1;
    for (const l of this.listeners.get(name) ?? []) l({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  fail(closed: boolean): void {
    this.readyState = closed ? 2 : 0;
    this.onerror?.(new Event('error'));
  }
}

interface Tab {
  id: string;
  stream: NoticeStream;
  seen: Array<[string, unknown]>;
  leaderFiles: FileMessageEvent[];
  ended: NoticeStreamEnded[];
}

let hub: ReturnType<typeof createHub>;
let locks: ReturnType<typeof createLocks>;
let sources: FakeSource[];
let polls: number;
let pollAnswer: () => Promise<UnreadCounts>;
let tabs: Tab[];

function openTab(id: string, opts: { locks?: LockManagerLike | null } = {}): Tab {
  const seen: Array<[string, unknown]> = [];
  const leaderFiles: FileMessageEvent[] = [];
  const ended: NoticeStreamEnded[] = [];
  const handlers: NoticeHandlers = {
    counts: (c) => seen.push(['counts', c]),
    file: (e, leader) => (seen.push(['file', e]), leader && leaderFiles.push(e)),
    fileChanged: () => seen.push(['fileChanged', null]),
    system: (e) => seen.push(['system', e]),
    resync: () => seen.push(['resync', null]),
    ended: (e) => (seen.push(['ended', e]), ended.push(e)),
    local: (d) => seen.push(['local', d]),
  };
  const lockView: LockManagerLike | null =
    opts.locks === null ? null : { request: (name, options, run) => locks.request(name, { ...options, tab: id } as { signal: AbortSignal }, run) };
  const stream = startNoticeStream(
    {
      url: '/api/v2/notice/stream',
      createEventSource: () => {
        const s = new FakeSource();
        sources.push(s);
        return s;
      },
      fetchCounts: () => (polls++, pollAnswer()),
      pollFailure: (e) => ((e as Error).message === 'session over' ? 'stop' : 'retry'),
      lockName: 'notice-test',
      channel: hub.channel(),
      locks: lockView,
      pollMs: 30_000,
      tabId: id,
    },
    handlers,
  );
  const tab = { id, stream, seen, leaderFiles, ended };
  tabs.push(tab);
  return tab;
}

/** Lets the fake clock and the promise queue run. */
async function settle(ms = 50): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await vi.advanceTimersByTimeAsync(ms / 5);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  hub = createHub();
  locks = createLocks();
  sources = [];
  polls = 0;
  pollAnswer = async () => counts(0);
  tabs = [];
});
afterEach(() => {
  for (const t of tabs) t.stream.stop();
  vi.useRealTimers();
});

describe('one notice stream per origin', () => {
  it('only the leader opens the stream; every tab gets its events; only the leader raises the desktop notification', async () => {
    const a = openTab('a');
    const b = openTab('b');
    const c = openTab('c');
    await settle();
    expect(sources).toHaveLength(1);
    expect([a.stream.role, b.stream.role, c.stream.role]).toEqual(['leader', 'follower', 'follower']);
    const file: FileMessageEvent = { id: 'm1', type: 'file.locked', actorName: '张三', fileName: null, itemCount: 1 };
    sources[0]!.emit('counts', counts(0));
    sources[0]!.emit('file', file);
    sources[0]!.emit('counts', counts(1));
    await settle();
    for (const tab of [a, b, c]) expect(tab.seen).toEqual([['counts', counts(0)], ['file', file], ['counts', counts(1)]]);
    expect(a.leaderFiles).toEqual([file]);
    expect(b.leaderFiles).toEqual([]);
    expect(a.stream.mode).toBe('stream');
    expect(b.stream.mode).toBe('idle');
  });

  it('when the leader tab closes the next one takes over the stream', async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    a.stream.stop();
    await settle();
    expect(sources).toHaveLength(2);
    expect(sources[0]!.closed).toBe(true);
    expect(b.stream.role).toBe('leader');
    sources[1]!.emit('fileChanged', {});
    await settle();
    expect(b.seen).toEqual([['fileChanged', null]]);
  });

  it('a tab taking over from a closed leader reads everything again at its first counts (events in between reached nobody)', async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    sources[0]!.emit('counts', counts(0));
    await settle();
    a.stream.stop();
    await settle();
    // A message came out while no stream was open; the new one starts with the counts.
    sources[1]!.emit('counts', counts(1));
    await settle();
    expect(b.seen).toEqual([['counts', counts(0)], ['resync', null], ['counts', counts(1)]]);
  });

  it('the first leader of a session does not resync: its lists were just read', async () => {
    const a = openTab('a');
    await settle();
    sources[0]!.emit('counts', counts(2));
    await settle();
    expect(a.seen).toEqual([['counts', counts(2)]]);
  });

  it('a new follower gets the last counts at once', async () => {
    openTab('a');
    await settle();
    sources[0]!.emit('counts', counts(3, 2));
    await settle();
    const late = openTab('late');
    await settle();
    expect(late.seen).toEqual([['counts', counts(3, 2)]]);
  });

  it('a change made in one tab reaches the others, not itself', async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    b.stream.broadcast({ kind: 'fileRead', ids: ['m1'] });
    await settle();
    expect(a.seen).toEqual([['local', { kind: 'fileRead', ids: ['m1'] }]]);
    expect(b.seen).toEqual([]);
  });
});

describe('fallback to polling', () => {
  it('a refused stream polls the counts, and tries the stream again later', async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    pollAnswer = async () => counts(4);
    sources[0]!.fail(true);
    await settle();
    expect(a.stream.mode).toBe('polling');
    expect(polls).toBe(1);
    expect(b.seen).toEqual([['resync', null], ['counts', counts(4)]]);
    await settle(30_000);
    expect(polls).toBe(2);
    await vi.advanceTimersByTimeAsync(REOPEN_MS);
    expect(sources.length).toBe(2);
    // The stream is back: polling stops.
    sources[1]!.emit('counts', counts(4));
    const before = polls;
    await settle(90_000);
    expect(polls).toBe(before);
    expect(a.stream.mode).toBe('stream');
  });

  it('a stream held back by a proxy (no first event) is polled meanwhile', async () => {
    const a = openTab('a');
    await settle();
    await vi.advanceTimersByTimeAsync(STREAM_STALL_MS);
    expect(a.stream.mode).toBe('polling');
    expect(polls).toBe(1);
    sources[0]!.emit('counts', counts(0));
    expect(a.stream.mode).toBe('stream');
  });

  it('a dropped connection the browser re-opens by itself resyncs at its first counts', async () => {
    const a = openTab('a');
    await settle();
    sources[0]!.emit('counts', counts(1));
    sources[0]!.fail(false);
    sources[0]!.emit('counts', counts(2));
    await settle();
    expect(a.seen).toEqual([['counts', counts(1)], ['resync', null], ['counts', counts(2)]]);
    expect(sources).toHaveLength(1);
  });
});

describe('the end of the session stops notices (spec §8)', () => {
  it("the stream's ended event stops every tab: no more polling, no reconnection", async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    const ended: NoticeStreamEnded = { errorCode: '400sec-core-301', errorMessage: '您的账号已在别处登录或已被管理员登出' };
    sources[0]!.emit('ended', ended);
    await settle();
    expect(a.ended).toEqual([ended]);
    expect(b.ended).toEqual([ended]);
    expect(sources[0]!.closed).toBe(true);
    expect([a.stream.mode, b.stream.mode]).toEqual(['idle', 'idle']);
    await settle(5 * REOPEN_MS);
    expect(sources).toHaveLength(1);
    expect(polls).toBe(0);
    // Nobody takes over: the followers stopped too.
    expect(locks.holderTab()).toBeNull();
  });

  it('a poll answered with the end of the session stops every tab', async () => {
    const a = openTab('a');
    const b = openTab('b');
    await settle();
    pollAnswer = async () => {
      throw new Error('session over');
    };
    sources[0]!.fail(true);
    await settle();
    expect(polls).toBe(1);
    expect([a.stream.mode, b.stream.mode]).toEqual(['idle', 'idle']);
    await settle(5 * REOPEN_MS);
    expect(polls).toBe(1);
    expect(sources).toHaveLength(1);
  });

  it('stop() (logout) closes the stream and releases the election', async () => {
    const a = openTab('a');
    await settle();
    a.stream.stop();
    await settle();
    expect(sources[0]!.closed).toBe(true);
    expect(locks.holderTab()).toBeNull();
  });

  it('a network failure while polling keeps polling', async () => {
    const a = openTab('a');
    await settle();
    pollAnswer = async () => {
      throw new Error('network');
    };
    sources[0]!.fail(true);
    await settle(30_050);
    expect(polls).toBe(2);
    expect(a.stream.mode).toBe('polling');
  });
});

describe('without Web Locks', () => {
  it('a heartbeat on the channel elects exactly one leader, and another after it goes', async () => {
    const a = openTab('a', { locks: null });
    const b = openTab('b', { locks: null });
    const c = openTab('c', { locks: null });
    await settle(5000);
    const leaders = [a, b, c].filter((t) => t.stream.role === 'leader');
    expect(leaders).toHaveLength(1);
    expect(sources).toHaveLength(1);
    const system: SystemNoticeEvent = { id: 'n1', title: '维护', important: true, change: 'published' };
    sources[0]!.emit('system', system);
    await settle();
    for (const t of [a, b, c]) expect(t.seen).toContainEqual(['system', system]);
    leaders[0]!.stream.stop();
    await settle(6000);
    const next = [a, b, c].filter((t) => t !== leaders[0] && t.stream.role === 'leader');
    expect(next).toHaveLength(1);
    expect(sources).toHaveLength(2);
  });
});
