/**
 * One transfer engine per origin, however many tabs are open.
 *
 * Every tab starts its own engine worker, and every worker exposes the same {@link TabEngine} (the
 * EngineApi plus `watchRole`), so the UI never cares which tab moves the bytes. Only ONE worker per
 * origin is the LEADER and runs the real engine; the others are FOLLOWERS that relay.
 *
 * Election: each worker asks for the Web Lock {@link ENGINE_LOCK} and holds it for its whole lifetime
 * (the lock callback never settles). The worker that holds it is the leader; when its tab closes (or
 * reloads) the worker dies, the browser releases the lock and grants it to the next waiting worker,
 * which creates the engine: the engine loads the persisted Dexie queue and resumes it by itself.
 * Where Web Locks do not exist (a page served over plain http from an intranet address is not a
 * secure context), a heartbeat election over the same channel stands in: see {@link startFallbackElection}.
 *
 * Protocol on the BroadcastChannel {@link ENGINE_CHANNEL} (all messages are structured clones; File
 * and Blob objects clone fine, the receiving side gets the same disk-backed file):
 *   follower → all   { type: 'hello', from }                       a follower started: leader, say who you are
 *   leader   → all   { type: 'leader', leader }                    "I run the engine" (once its engine is ready,
 *                                                                  on hello after the snapshot, on a fallback
 *                                                                  claim, and every HEARTBEAT_MS as a heartbeat)
 *   follower → all   { type: 'request', from, reqId, method, args } an EngineApi call to run on the leader
 *   leader   → all   { type: 'reply', to, reqId, ok, value|error }  its result, addressed to the caller
 *   leader   → all   { type: 'changes', leader, changes }           every engine snapshot as what changed since the
 *                                                                  last one posted (common/transfer/snapshot-changes.ts;
 *                                                                  a full one on hello; none before any other tab
 *                                                                  was heard); a follower that missed the one
 *                                                                  before says hello again
 *   any      → all   { type: 'claim', from }                        fallback election only (no Web Locks)
 *
 * Delivery: a follower keeps every request until its reply arrives, and re-sends all of them whenever
 * a leader announces itself ('leader' from a new tab id). So a call made while no leader listens yet
 * (start-up, hand-over) is not lost. The leader remembers the request keys it has run and ignores
 * repeats. A request the old leader had run but not answered before it died is run again by the new
 * leader (at-least-once across a hand-over); every command is idempotent except enqueue*, whose worst
 * case is a duplicate queue item in that rare window. A follower that becomes the leader runs its own
 * pending requests itself.
 *
 * `configure` and `subscribe`/`subscribeChanges`/`unsubscribe` stay local to each worker: each tab
 * configures the engine it would lead, and its subscribers receive the leader's snapshots whoever the
 * leader is. The page subscribes to changes only (`subscribeChanges`): a folder of 1,000 files sent
 * whole every 30 ms was most of what the worker and the page did while it uploaded (issue 43).
 */
import type { EngineApi, EngineConfig, TransferSnapshot } from '../../common/transfer/engine-api';
import { SnapshotAssembler, SnapshotDiffer, type SnapshotChanges } from '../../common/transfer/snapshot-changes';

export const ENGINE_LOCK = 'cloud-drive-transfer-engine';
export const ENGINE_CHANNEL = 'cloud-drive-transfer';
/** Leader heartbeat period; only the fallback election (no Web Locks) relies on it. */
export const HEARTBEAT_MS = 1000;
/** Fallback election: a follower claims leadership after this long without a heartbeat. */
const LEADER_SILENCE_MS = 3 * HEARTBEAT_MS;
/** Fallback election: how long a claim waits for a competing claim or a heartbeat. */
const CLAIM_WAIT_MS = 400;

export type TabRole = 'leader' | 'follower';

/** The calls a follower forwards to the leader. */
const FORWARDED = [
  'enqueueUploads',
  'enqueueFolder',
  'enqueueNewVersion',
  'pause',
  'resume',
  'cancel',
  'retry',
  'pauseAll',
  'resumeAll',
  'cancelAll',
  'retryAll',
  'resumeAccessHolds',
  'rename',
  'remove',
  'decide',
  'reattach',
  'exportQueue',
  'clearFinished',
  'clearFailed',
  'getSnapshot',
] as const satisfies ReadonlyArray<keyof EngineApi>;
type ForwardedMethod = (typeof FORWARDED)[number];

export type TabMessage =
  | { type: 'hello'; from: string }
  | { type: 'leader'; leader: string }
  | { type: 'request'; from: string; reqId: number; method: ForwardedMethod; args: unknown[] }
  | { type: 'reply'; to: string; reqId: number; ok: true; value: unknown }
  | { type: 'reply'; to: string; reqId: number; ok: false; error: string }
  | { type: 'changes'; leader: string; changes: SnapshotChanges }
  | { type: 'claim'; from: string };

/** The worker's API: the engine's, plus which role this tab plays. */
export interface TabEngine<TFile> extends EngineApi<TFile> {
  /** Calls `listener` now and whenever this tab's role changes. Wrap with Comlink.proxy. */
  watchRole(listener: (role: TabRole) => void): Promise<void>;
  /**
   * Like `subscribe`, with only what changed since the listener's last update (the first is full):
   * rebuild the snapshots with a SnapshotAssembler. Unsubscribe with `unsubscribe`.
   */
  subscribeChanges(listener: (changes: SnapshotChanges) => void): Promise<number>;
}

/** The minimal channel surface used (a BroadcastChannel; tests may pass their own). */
export interface TabChannel {
  postMessage(message: TabMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<TabMessage>) => void): void;
}

export interface LockManagerLike {
  request(name: string, callback: () => Promise<unknown>): Promise<unknown>;
}

export interface TabEngineDeps<TFile> {
  /** Creates the real engine; called once, when this worker becomes the leader. */
  createEngine: () => EngineApi<TFile>;
  channel?: TabChannel;
  /** `navigator.locks` by default; null → fallback election. */
  locks?: LockManagerLike | null;
  tabId?: string;
  /**
   * Ends this tab's part (tests, or a page that shuts its worker down cleanly): timers stop, the
   * engine lock is released so the next tab is elected, and channel messages are ignored. A worker
   * that simply dies needs none of this: the browser drops its timers and releases its lock.
   */
  signal?: AbortSignal;
}

interface ChangeListener {
  listener: (changes: SnapshotChanges) => void;
  differ: SnapshotDiffer;
}

interface Pending {
  method: ForwardedMethod;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type AnyEngine = Record<ForwardedMethod, (...args: unknown[]) => Promise<unknown>> & EngineApi<unknown>;

function defaultLocks(): LockManagerLike | null {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks ?? null;
}

function randomTabId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createTabEngine<TFile>(deps: TabEngineDeps<TFile>): TabEngine<TFile> {
  const tabId = deps.tabId ?? randomTabId();
  const channel = deps.channel ?? (new BroadcastChannel(ENGINE_CHANNEL) as unknown as TabChannel);
  const locks = deps.locks === undefined ? defaultLocks() : deps.locks;
  const signal = deps.signal ?? new AbortController().signal;
  /** setInterval that stops when the tab ends. */
  const every = (ms: number, tick: () => void): (() => void) => {
    const timer = setInterval(tick, ms);
    const stop = () => clearInterval(timer);
    signal.addEventListener('abort', stop, { once: true });
    return stop;
  };

  let role: TabRole = 'follower';
  let engine: AnyEngine | null = null;
  /** Leader: resolves once the engine is configured and subscribed; calls wait for it. */
  let engineReady: Promise<AnyEngine> | null = null;
  /** Leader: engineReady has resolved, so lastSnapshot holds the engine's snapshot. */
  let ready = false;
  let config: EngineConfig | null = null;
  let lastSnapshot: TransferSnapshot | null = null;
  let knownLeader: string | null = null;
  let lastHeartbeat = 0;

  const listeners = new Map<number, (snapshot: TransferSnapshot) => void>();
  /** Page listeners that take changes, each with what it was last sent. */
  const changeListeners = new Map<number, ChangeListener>();
  /** Leader: what was last posted to the other tabs. */
  const channelDiffer = new SnapshotDiffer();
  /**
   * Whether another tab has ever spoken on the channel (every tab says 'hello' when it starts, and a
   * tab never hears its own posts). Until one has, nobody listens: the leader posts no changes, each a
   * structured clone routed through the browser process — with one tab open, a folder of 1,000 small
   * files cost the engine's thread as much in channel posts as in its page's updates (issue 43). The
   * first 'hello' is answered with everything.
   */
  let otherTabs = false;
  /** Follower: the leader's snapshot rebuilt from its posts. */
  const assembler = new SnapshotAssembler();
  /** Follower: when it last asked for a full update after missing one. */
  let askedForFullAt = -Infinity;
  let nextListenerId = 1;
  const roleListeners = new Set<(role: TabRole) => void>();

  const pending = new Map<number, Pending>();
  let nextReqId = 1;
  /** Leader: request keys already run (from:reqId), so a re-sent request runs once. */
  const handled = new Set<string>();

  const post = (message: TabMessage): void => {
    if (!signal.aborted) channel.postMessage(message);
  };

  function publish(snapshot: TransferSnapshot): void {
    lastSnapshot = snapshot;
    for (const listener of listeners.values()) {
      // A listener is a Comlink proxy to the page: a closed page rejects; nothing to do then.
      Promise.resolve()
        .then(() => listener(snapshot))
        .catch(() => undefined);
    }
    for (const entry of changeListeners.values()) sendChanges(entry, snapshot);
  }

  /** The listener's update to `snapshot`, unless nothing it shows changed (no item, no total). */
  function sendChanges(entry: ChangeListener, snapshot: TransferSnapshot): void {
    const changes = entry.differ.next(snapshot);
    if (!changes) return;
    Promise.resolve()
      .then(() => entry.listener(changes))
      .catch(() => undefined);
  }

  function setRole(next: TabRole): void {
    role = next;
    for (const listener of roleListeners) Promise.resolve().then(() => listener(next)).catch(() => undefined);
  }

  // ---- leader --------------------------------------------------------------------------------

  async function becomeLeader(): Promise<void> {
    if (engine) return;
    const created = deps.createEngine() as unknown as AnyEngine;
    engine = created;
    knownLeader = tabId;
    engineReady = (async () => {
      if (config) await created.configure(config);
      await created.subscribe((snapshot: TransferSnapshot) => {
        publish(snapshot);
        if (!otherTabs) return;
        const changes = channelDiffer.next(snapshot);
        if (changes) post({ type: 'changes', leader: tabId, changes });
      });
      return created;
    })();
    setRole('leader');
    await engineReady;
    ready = true;
    post({ type: 'leader', leader: tabId });
    every(HEARTBEAT_MS, () => post({ type: 'leader', leader: tabId }));
    // Calls this tab made while it was a follower now run here.
    for (const [reqId, call] of [...pending]) {
      pending.delete(reqId);
      runLocally(call.method, call.args).then(call.resolve, call.reject);
    }
  }

  function runLocally(method: ForwardedMethod, args: unknown[]): Promise<unknown> {
    return (engineReady as Promise<AnyEngine>).then((e) => e[method](...args));
  }

  function serveRequest(message: Extract<TabMessage, { type: 'request' }>): void {
    const key = `${message.from}:${message.reqId}`;
    if (handled.has(key)) return;
    handled.add(key);
    runLocally(message.method, message.args).then(
      (value) => post({ type: 'reply', to: message.from, reqId: message.reqId, ok: true, value }),
      (error: unknown) => post({ type: 'reply', to: message.from, reqId: message.reqId, ok: false, error: errorText(error) }),
    );
  }

  // ---- follower ------------------------------------------------------------------------------

  function send(reqId: number, call: Pending): void {
    post({ type: 'request', from: tabId, reqId, method: call.method, args: call.args });
  }

  function forward(method: ForwardedMethod, args: unknown[]): Promise<unknown> {
    if (engine) return runLocally(method, args);
    return new Promise((resolve, reject) => {
      const reqId = nextReqId++;
      const call: Pending = { method, args, resolve, reject };
      pending.set(reqId, call);
      send(reqId, call);
    });
  }

  channel.addEventListener('message', (event) => {
    if (signal.aborted) return;
    otherTabs = true;
    const message = event.data;
    switch (message.type) {
      case 'hello':
        // Only once the engine is ready, and the snapshot first: a follower without a snapshot answers
        // every 'leader' with another 'hello', so answering before there is a snapshot to give (the
        // engine still loading its queue) ping-pongs, and with several such tabs multiplies the
        // messages each round. The ready leader's own announcement reaches those tabs anyway.
        if (ready && lastSnapshot) {
          // Brought up to date first: while no other tab was heard, nothing was posted (otherTabs).
          channelDiffer.next(lastSnapshot);
          const full = channelDiffer.fullUpdate();
          if (full) post({ type: 'changes', leader: tabId, changes: full });
          post({ type: 'leader', leader: tabId });
        }
        break;
      case 'request':
        if (engine) serveRequest(message);
        break;
      case 'reply': {
        if (message.to !== tabId) break;
        const call = pending.get(message.reqId);
        if (!call) break;
        pending.delete(message.reqId);
        if (message.ok) call.resolve(message.value);
        else call.reject(new Error(message.error));
        break;
      }
      case 'leader':
        lastHeartbeat = Date.now();
        // Our 'hello' may have gone out before any leader listened: ask again until a snapshot came.
        if (!engine && !lastSnapshot) post({ type: 'hello', from: tabId });
        if (engine || message.leader === knownLeader) break;
        knownLeader = message.leader;
        // A new leader: it may not have seen our outstanding calls.
        for (const [reqId, call] of pending) send(reqId, call);
        break;
      case 'changes': {
        if (engine) break;
        const snapshot = assembler.apply(message.changes);
        if (snapshot) publish(snapshot);
        else if (Date.now() - askedForFullAt >= HEARTBEAT_MS) {
          // Joined in the middle (or missed one): the leader answers hello with everything.
          askedForFullAt = Date.now();
          post({ type: 'hello', from: tabId });
        }
        break;
      }
      case 'claim':
        onClaim?.(message.from);
        break;
    }
  });

  // ---- election ------------------------------------------------------------------------------

  let onClaim: ((from: string) => void) | null = null;

  /**
   * Without Web Locks: a follower that hears no heartbeat for LEADER_SILENCE_MS claims leadership and
   * takes it unless, within CLAIM_WAIT_MS, a heartbeat arrives or a competing claim with a smaller tab
   * id does. Best effort (timers in background tabs are throttled), which is why Web Locks come first.
   *
   * Two claims only settle by tab id when each reaches the other while it is claiming. So a tab that
   * hears a claim while NOT claiming counts it as a sign of life and waits a whole silence before
   * claiming itself (otherwise it claims right after and both win when the first winner's engine
   * takes longer than a claim window to announce itself), and a leader answers a claim at once,
   * before its engine is ready.
   */
  function startFallbackElection(): void {
    let claiming = false;
    let beaten = false;
    onClaim = (from) => {
      if (engine) post({ type: 'leader', leader: tabId });
      else if (!claiming) lastHeartbeat = Date.now();
      else if (from < tabId) beaten = true;
    };
    lastHeartbeat = Date.now() - LEADER_SILENCE_MS + CLAIM_WAIT_MS; // give a live leader time to answer 'hello'
    const stopTimer = every(HEARTBEAT_MS / 2, () => {
      if (engine || claiming || Date.now() - lastHeartbeat < LEADER_SILENCE_MS) return;
      claiming = true;
      beaten = false;
      const claimedAt = Date.now();
      post({ type: 'claim', from: tabId });
      setTimeout(() => {
        claiming = false;
        if (signal.aborted || beaten || lastHeartbeat > claimedAt) return;
        stopTimer();
        void becomeLeader();
      }, CLAIM_WAIT_MS);
    });
  }

  if (locks) {
    // Held until the worker dies (or the signal ends this tab): the callback's promise settles only then.
    void locks.request(ENGINE_LOCK, () => {
      if (signal.aborted) return Promise.resolve();
      void becomeLeader().catch((error: unknown) => console.error('transfer engine failed to start', error));
      return new Promise<void>((release) => signal.addEventListener('abort', () => release(), { once: true }));
    });
  } else {
    startFallbackElection();
  }
  post({ type: 'hello', from: tabId });

  // ---- the API -------------------------------------------------------------------------------

  const api = {
    async configure(next: EngineConfig) {
      config = { ...next };
      if (engine) await engine.configure(config);
    },
    async subscribe(listener: (snapshot: TransferSnapshot) => void) {
      const id = nextListenerId++;
      listeners.set(id, listener);
      if (lastSnapshot) {
        const snapshot = lastSnapshot;
        Promise.resolve()
          .then(() => listener(snapshot))
          .catch(() => undefined);
      }
      return id;
    },
    async subscribeChanges(listener: (changes: SnapshotChanges) => void) {
      const id = nextListenerId++;
      const entry: ChangeListener = { listener, differ: new SnapshotDiffer() };
      changeListeners.set(id, entry);
      if (lastSnapshot) sendChanges(entry, lastSnapshot);
      return id;
    },
    async unsubscribe(id: number) {
      listeners.delete(id);
      changeListeners.delete(id);
    },
    async watchRole(listener: (role: TabRole) => void) {
      roleListeners.add(listener);
      // The role now: read later, a change made meanwhile would be reported twice and this one never.
      const current = role;
      Promise.resolve()
        .then(() => listener(current))
        .catch(() => undefined);
    },
  };
  const forwarded = Object.fromEntries(FORWARDED.map((method) => [method, (...args: unknown[]) => forward(method, args)]));
  return { ...forwarded, ...api } as TabEngine<TFile>;
}
