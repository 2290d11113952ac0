/**
 * One notice stream per origin, however many tabs are open (the transfer engine's election,
 * workers/tabs/tab-engine.ts, applied to the notices).
 *
 * Each tab asks for the Web Lock `lockName` and holds it while it lives; the holder is the LEADER:
 * it opens the server's event stream (GET /api/v2/notice/stream, EventSource), handles every event
 * itself and relays it to the other tabs (FOLLOWERS) on a BroadcastChannel. When the leader's tab
 * closes, the browser hands the lock to the next tab, which opens the stream. Where Web Locks do not
 * exist (plain http on an intranet address), a heartbeat on the same channel elects the leader.
 *
 * The stream falls back to polling the counts (every `pollMs`) while it cannot be had — the server
 * refused it, a proxy holds its events back (no first event within STREAM_STALL_MS) — and is tried
 * again every REOPEN_MS. It stops for good (every tab) on the `ended` event or a poll answered with
 * the end of the session (spec §8: 400sec-core-301 stops notices), and at `stop()` (logout).
 *
 * Channel messages: { type: 'event', name, data } relayed events (also tab-local ones such as a
 * read made offline), { type: 'hello' } a new follower asks for the last counts, { type: 'leader' }
 * announcement and fallback heartbeat, { type: 'claim' } fallback election.
 */
import type { FileMessageEvent, NoticeStreamEnded, SystemNoticeEvent, UnreadCounts } from '../../../common/api/notices';

export type NoticeEventName = 'counts' | 'file' | 'fileChanged' | 'system' | 'ended' | 'resync' | 'local';
const SERVER_EVENTS = ['counts', 'file', 'fileChanged', 'system', 'ended'] as const;

export type NoticeChannelMessage =
  | { type: 'event'; from: string; name: NoticeEventName; data: unknown }
  | { type: 'hello'; from: string }
  | { type: 'leader'; from: string }
  | { type: 'claim'; from: string };

export interface ChannelLike {
  postMessage(message: NoticeChannelMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<NoticeChannelMessage>) => void): void;
  close?(): void;
}

export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface LockManagerLike {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<unknown>): Promise<unknown>;
}

export interface NoticeHandlers {
  counts(counts: UnreadCounts): void;
  /** A new file message; `leader` is true in the one tab that should raise a desktop notification. */
  file(event: FileMessageEvent, leader: boolean): void;
  /** Messages were read or deleted elsewhere (another tab, device): lists reload. */
  fileChanged(): void;
  system(event: SystemNoticeEvent): void;
  /** The stream came back after a gap: what was missed is read again. */
  resync(): void;
  /** The session is over: the stream has stopped in every tab. */
  ended(event: NoticeStreamEnded): void;
  /** A tab-local change announced by another tab (`broadcast`). */
  local(data: unknown): void;
}

export interface NoticeStreamDeps {
  url: string;
  createEventSource: (url: string) => EventSourceLike;
  fetchCounts: (signal: AbortSignal) => Promise<UnreadCounts>;
  /** A failed poll: 'stop' when the session is over (the API client has already reacted), else 'retry'. */
  pollFailure: (error: unknown) => 'stop' | 'retry';
  lockName: string;
  /** null: no other tab (tests of one tab); undefined: a BroadcastChannel named after the lock. */
  channel?: ChannelLike | null;
  /** undefined: navigator.locks; null: the heartbeat election. */
  locks?: LockManagerLike | null;
  pollMs: number;
  tabId?: string;
}

export interface NoticeStream {
  readonly role: 'leader' | 'follower';
  /** 'stream' (events flow), 'polling' (the fallback), 'idle' (a follower, or stopped). */
  readonly mode: 'stream' | 'polling' | 'idle';
  /** Tells the other tabs of a change made here (e.g. messages marked read offline). */
  broadcast(data: unknown): void;
  stop(): void;
}

/** No first event this long after opening: the stream is held back somewhere; poll meanwhile. */
export const STREAM_STALL_MS = 10_000;
/** While polling, the stream is tried again this often. */
export const REOPEN_MS = 60_000;
/**
 * A leader that saw the session end keeps the election this long: the other tabs hear of the end
 * before one of them could be elected and open a stream of a session that is over.
 */
const ENDED_HOLD_MS = 1000;
const HEARTBEAT_MS = 1000;
const LEADER_SILENCE_MS = 3 * HEARTBEAT_MS;
const CLAIM_WAIT_MS = 400;
const CLOSED = 2;

function randomTabId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function defaultLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

export function startNoticeStream(deps: NoticeStreamDeps, handlers: NoticeHandlers): NoticeStream {
  const tabId = deps.tabId ?? randomTabId();
  const channel: ChannelLike | null =
    deps.channel === undefined ? (typeof BroadcastChannel === 'undefined' ? null : (new BroadcastChannel(deps.lockName) as unknown as ChannelLike)) : deps.channel;
  const locks = deps.locks === undefined ? defaultLocks() : deps.locks;
  const life = new AbortController();
  /** Held for as long as this tab takes part in the election (released a little after `life` on an end). */
  const election = new AbortController();

  let role: 'leader' | 'follower' = 'follower';
  let mode: 'stream' | 'polling' | 'idle' = 'idle';
  let source: EventSourceLike | null = null;
  let lastCounts: UnreadCounts | null = null;
  let gap = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let pollAbort: AbortController | null = null;

  const later = (ms: number, fn: () => void): ReturnType<typeof setTimeout> => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!life.signal.aborted) fn();
    }, ms);
    timers.add(t);
    return t;
  };
  const cancel = (t: ReturnType<typeof setTimeout> | null) => {
    if (t === null) return;
    clearTimeout(t);
    timers.delete(t);
  };
  const post = (message: NoticeChannelMessage) => {
    if (!life.signal.aborted) channel?.postMessage(message);
  };

  /** Runs an event in this tab. */
  function dispatch(name: NoticeEventName, data: unknown, asLeader: boolean): void {
    switch (name) {
      case 'counts':
        lastCounts = data as UnreadCounts;
        return handlers.counts(lastCounts);
      case 'file':
        return handlers.file(data as FileMessageEvent, asLeader);
      case 'fileChanged':
        return handlers.fileChanged();
      case 'system':
        return handlers.system(data as SystemNoticeEvent);
      case 'resync':
        return handlers.resync();
      case 'local':
        return handlers.local(data);
      case 'ended':
        stop(true);
        return handlers.ended(data as NoticeStreamEnded);
    }
  }

  /** The leader: run an event here and in every other tab. */
  function emit(name: NoticeEventName, data: unknown): void {
    post({ type: 'event', from: tabId, name, data });
    dispatch(name, data, true);
  }

  // ---- the leader's connection -------------------------------------------------------------------

  function openSource(): void {
    if (life.signal.aborted || source) return;
    const es = deps.createEventSource(deps.url);
    source = es;
    let heard = false;
    const stall = later(STREAM_STALL_MS, () => !heard && startPolling());
    for (const name of SERVER_EVENTS) {
      es.addEventListener(name, (event) => {
        if (source !== es) return;
        if (!heard) {
          heard = true;
          cancel(stall);
          stopPolling();
          mode = 'stream';
        }
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        // The first counts after a gap: whatever happened meanwhile is read again.
        if (name === 'counts' && gap) {
          gap = false;
          emit('resync', null);
        }
        emit(name, data);
      });
    }
    es.onerror = () => {
      if (source !== es) return;
      gap = true;
      if (es.readyState !== CLOSED) return; // the browser reconnects by itself (retry: 3 s)
      // Refused (a non-stream answer) or given up: poll, and try the stream again later.
      es.close();
      source = null;
      cancel(stall);
      startPolling();
      later(REOPEN_MS, openSource);
    };
  }

  function startPolling(): void {
    if (life.signal.aborted || pollAbort) return;
    mode = 'polling';
    pollAbort = new AbortController();
    const tick = async (): Promise<void> => {
      pollTimer = null;
      const abort = pollAbort;
      if (!abort) return;
      try {
        const counts = await deps.fetchCounts(abort.signal);
        if (pollAbort !== abort) return;
        if (gap) {
          gap = false;
          emit('resync', null);
        }
        emit('counts', counts);
      } catch (error) {
        if (pollAbort !== abort) return;
        gap = true;
        if (deps.pollFailure(error) === 'stop') {
          post({ type: 'event', from: tabId, name: 'ended', data: null });
          stop(true);
          return;
        }
      }
      if (pollAbort === abort) pollTimer = later(deps.pollMs, () => void tick());
    };
    void tick();
  }

  function stopPolling(): void {
    pollAbort?.abort();
    pollAbort = null;
    cancel(pollTimer);
    pollTimer = null;
  }

  function lead(): void {
    if (life.signal.aborted || role === 'leader') return;
    role = 'leader';
    // Taking over from another tab's stream: what came out between its end and this one's start
    // reached nobody, so the first counts here read everything again.
    if (followedAnother) gap = true;
    post({ type: 'leader', from: tabId });
    openSource();
  }

  // ---- channel --------------------------------------------------------------------------------

  let lastHeartbeat = Date.now();
  let claiming = false;
  /** Another tab led while this one followed (its events or announcements were heard). */
  let followedAnother = false;
  channel?.addEventListener('message', (event) => {
    const m = event.data;
    if (life.signal.aborted || !m || m.from === tabId) return;
    if (m.type === 'event' || m.type === 'leader') followedAnother = true;
    switch (m.type) {
      case 'event':
        // A relayed 'ended' with no data: a poll found the session over; the app reacts like to the event.
        if (m.name === 'ended' && m.data === null) {
          stop(true);
          return;
        }
        dispatch(m.name, m.data, false);
        return;
      case 'hello':
        if (role === 'leader' && lastCounts) post({ type: 'event', from: tabId, name: 'counts', data: lastCounts });
        return;
      case 'leader':
        lastHeartbeat = Date.now();
        claiming = false;
        return;
      case 'claim':
        // Fallback election: the smaller id wins a tie.
        if (claiming && m.from < tabId) claiming = false;
        if (role === 'leader' && !locks) post({ type: 'leader', from: tabId });
        return;
    }
  });

  // ---- election -------------------------------------------------------------------------------

  if (locks) {
    locks
      .request(deps.lockName, { signal: election.signal }, () => {
        if (life.signal.aborted) return Promise.resolve();
        lead();
        return new Promise<void>((resolve) => election.signal.addEventListener('abort', () => resolve(), { once: true }));
      })
      .catch(() => undefined); // stopped while waiting: this tab never led
  } else if (!channel) {
    lead();
  } else {
    const beat = setInterval(() => {
      if (life.signal.aborted) return;
      if (role === 'leader') return post({ type: 'leader', from: tabId });
      if (claiming || Date.now() - lastHeartbeat < LEADER_SILENCE_MS) return;
      claiming = true;
      post({ type: 'claim', from: tabId });
      later(CLAIM_WAIT_MS, () => {
        if (claiming && Date.now() - lastHeartbeat >= LEADER_SILENCE_MS) lead();
        claiming = false;
      });
    }, HEARTBEAT_MS);
    life.signal.addEventListener('abort', () => clearInterval(beat), { once: true });
  }
  post({ type: 'hello', from: tabId });

  /** `ended`: the session is over — a leader keeps the election a moment (ENDED_HOLD_MS). */
  function stop(ended = false): void {
    if (life.signal.aborted) return;
    life.abort();
    if (ended && role === 'leader') setTimeout(() => election.abort(), ENDED_HOLD_MS);
    else election.abort();
    source?.close();
    source = null;
    stopPolling();
    for (const t of timers) clearTimeout(t);
    timers.clear();
    mode = 'idle';
    // Only a channel made here is closed here.
    if (deps.channel === undefined) channel?.close?.();
  }

  return {
    get role() {
      return role;
    },
    get mode() {
      return life.signal.aborted ? 'idle' : mode;
    },
    broadcast(data) {
      post({ type: 'event', from: tabId, name: 'local', data });
    },
    stop: () => stop(),
  };
}
