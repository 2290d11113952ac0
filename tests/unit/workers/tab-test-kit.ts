/**
 * Several "tabs" of one origin in one process, for the unit tests of workers/tabs/tab-engine.ts:
 * the channel, the lock manager and the engine factory are the three edges createTabEngine takes
 * as deps; everything between them is the real code under test.
 *  - channels: Node's real BroadcastChannel (one per tab), or an in-memory hub whose delivery runs
 *    on (fake) timers, for the fallback election whose timing the tests drive with fake timers;
 *  - locks: a FIFO lock manager with Web Locks' semantics (one holder, the next waiter granted
 *    when the holder's callback settles or its tab closes);
 *  - engines: a recording fake EngineApi over one "persisted queue" shared by every engine the
 *    origin creates (the Dexie database in the browser), so a new leader resumes what the old had.
 */
import type { EngineApi, EngineConfig, TransferItemView, TransferSnapshot, UploadTarget } from '../../../common/transfer/engine-api';
import { canTransition, type TransferState } from '../../../common/transfer/states';
import { SnapshotAssembler, type SnapshotChanges } from '../../../common/transfer/snapshot-changes';
import { createTabEngine, ENGINE_CHANNEL, type LockManagerLike, type TabChannel, type TabEngine, type TabMessage, type TabRole } from '../../../workers/tabs/tab-engine';

/** What a fake engine takes for a file: structured-clonable, like a browser File. */
export interface FakeFile {
  name: string;
  size: number;
}

export const target: UploadTarget = { parentId: 'folder-1', category: 1 };

// ---- channels ------------------------------------------------------------------------------------

/** A tab's end of the channel; closing it is the tab going away (nothing in, nothing out). */
export interface TestChannel extends TabChannel {
  readonly sent: TabMessage[];
  close(): void;
}

/** Node's BroadcastChannel: structured clones, asynchronous delivery to every other instance. */
export function broadcastChannel(name: string): TestChannel {
  const real = new BroadcastChannel(name);
  let closed = false;
  const sent: TabMessage[] = [];
  return {
    sent,
    postMessage(message) {
      if (closed) return;
      sent.push(message);
      real.postMessage(message);
    },
    addEventListener(_type, listener) {
      real.addEventListener('message', (event) => {
        if (!closed) listener(event as MessageEvent<TabMessage>);
      });
    },
    close() {
      closed = true;
      real.close();
    },
  };
}

/**
 * An in-memory channel whose messages arrive after `latencyMs` on the timers, in order. Under fake
 * timers every delivery then happens at a known instant, which the real channel (delivered by the
 * event loop, outside the fake clock) cannot give.
 */
export function createHub(latencyMs = 5) {
  const members = new Set<{ deliver: (message: TabMessage) => void }>();
  return {
    channel(): TestChannel {
      let closed = false;
      const sent: TabMessage[] = [];
      const listeners: Array<(event: MessageEvent<TabMessage>) => void> = [];
      const self = {
        deliver(message: TabMessage) {
          if (closed) return;
          for (const listener of listeners) listener({ data: structuredClone(message) } as MessageEvent<TabMessage>);
        },
      };
      members.add(self);
      return {
        sent,
        postMessage(message) {
          if (closed) return;
          sent.push(message);
          for (const other of members) if (other !== self) setTimeout(() => other.deliver(message), latencyMs);
        },
        addEventListener(_type, listener) {
          listeners.push(listener);
        },
        close() {
          closed = true;
          members.delete(self);
        },
      };
    },
  };
}

// ---- locks ---------------------------------------------------------------------------------------

interface LockEntry {
  owner: string;
  callback: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Web Locks, exclusive mode only: one holder per name, waiters granted first come first served. */
export function createFifoLocks() {
  const queues = new Map<string, LockEntry[]>();

  function grant(name: string): void {
    const head = queues.get(name)?.[0];
    if (!head) return;
    // Granted asynchronously, like navigator.locks; released when the callback's promise settles.
    void Promise.resolve()
      .then(() => head.callback())
      .then(
        (value) => {
          drop(name, head);
          head.resolve(value);
        },
        (error: unknown) => {
          drop(name, head);
          head.reject(error);
        },
      );
  }

  function drop(name: string, entry: LockEntry): void {
    const queue = queues.get(name) ?? [];
    const index = queue.indexOf(entry);
    if (index < 0) return;
    queue.splice(index, 1);
    if (index === 0) grant(name);
  }

  return {
    forTab(owner: string): LockManagerLike {
      return {
        request(name, callback) {
          return new Promise((resolve, reject) => {
            const queue = queues.get(name) ?? [];
            queues.set(name, queue);
            queue.push({ owner, callback, resolve, reject });
            if (queue.length === 1) grant(name);
          });
        },
      };
    },
    /** The tab closed: the browser drops its hold (the next waiter is granted) and its waiting requests. */
    release(owner: string): void {
      for (const [name, queue] of queues) for (const entry of queue.filter((e) => e.owner === owner)) drop(name, entry);
    },
    holder(name: string): string | null {
      return queues.get(name)?.[0]?.owner ?? null;
    },
    waiters(name: string): string[] {
      return (queues.get(name) ?? []).slice(1).map((e) => e.owner);
    },
  };
}

// ---- engines -------------------------------------------------------------------------------------

type Call = { method: string; args: unknown[] };

/**
 * A recording engine. Items live in the factory's shared store (the persisted queue), so the engine a
 * new leader creates knows the old leader's items. Commands obey the real transition table: an illegal
 * one (pausing a cancelled item) or an unknown id rejects, like the real engine.
 */
export class FakeEngine {
  readonly calls: Call[] = [];
  readonly configs: EngineConfig[] = [];
  /** Methods that record the call and then never answer (a command in flight when its tab dies). */
  readonly stalled = new Set<string>();
  private readonly listeners = new Map<number, (snapshot: TransferSnapshot) => void>();
  private nextListener = 1;

  constructor(
    readonly createdBy: string,
    private readonly store: Map<string, TransferItemView>,
    private readonly nextId: () => string,
    /** How long the first call takes: the real engine loads the persisted queue first. */
    private readonly startMs: number,
  ) {}

  private started: Promise<void> | null = null;
  private start(): Promise<void> {
    this.started ??= new Promise((resolve) => (this.startMs > 0 ? setTimeout(resolve, this.startMs) : resolve()));
    return this.started;
  }

  private async record(method: string, args: unknown[]): Promise<void> {
    this.calls.push({ method, args });
    await this.start();
    if (this.stalled.has(method)) await new Promise<never>(() => undefined);
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  snapshot(): TransferSnapshot {
    const items = [...this.store.values()].map((item) => ({ ...item }));
    return { items, totalBytes: items.reduce((sum, i) => sum + i.size, 0), doneBytes: 0, speed: 0 };
  }

  private changed(): void {
    const snapshot = this.snapshot();
    for (const listener of this.listeners.values()) listener(snapshot);
  }

  private add(file: FakeFile, uploadTarget: UploadTarget, relativePath?: string): string {
    const id = this.nextId();
    this.store.set(id, {
      id,
      direction: 'upload',
      name: file.name,
      size: file.size,
      bytesDone: 0,
      state: 'waiting',
      speed: 0,
      etaSeconds: null,
      lastError: null,
      target: uploadTarget,
      fileId: null,
      createdAt: this.store.size,
      ...(relativePath ? { relativePath } : {}),
    });
    return id;
  }

  private move(id: string, to: TransferState): void {
    const item = this.store.get(id);
    if (!item) throw new Error(`没有这个传输项: ${id}`);
    if (!canTransition(item.state, to)) throw new Error(`illegal transfer transition ${item.state} → ${to}`);
    item.state = to;
  }

  private moveAll(from: TransferState[], to: TransferState): void {
    for (const item of this.store.values()) if (from.includes(item.state)) item.state = to;
    this.changed();
  }

  readonly api: EngineApi<FakeFile> = {
    enqueueUploads: async (files, uploadTarget) => {
      await this.record('enqueueUploads', [files, uploadTarget]);
      const ids = files.map((file) => this.add(file, uploadTarget));
      this.changed();
      return ids;
    },
    enqueueNewVersion: async (file, versionTarget) => {
      await this.record('enqueueNewVersion', [file, versionTarget]);
      const id = this.add(file, { parentId: versionTarget.parentId, category: versionTarget.category });
      this.changed();
      return id;
    },
    enqueueFolder: async (entries, uploadTarget) => {
      await this.record('enqueueFolder', [entries, uploadTarget]);
      const ids = entries.map((entry) => this.add(entry.file, uploadTarget, entry.relativePath));
      this.changed();
      return ids;
    },
    pause: async (id) => {
      await this.record('pause', [id]);
      this.move(id, 'paused');
      this.changed();
    },
    resume: async (id) => {
      await this.record('resume', [id]);
      this.move(id, 'waiting');
      this.changed();
    },
    cancel: async (id) => {
      await this.record('cancel', [id]);
      this.move(id, 'cancelled');
      this.changed();
    },
    retry: async (id) => {
      await this.record('retry', [id]);
      this.move(id, 'waiting');
      this.changed();
    },
    pauseAll: async () => {
      await this.record('pauseAll', []);
      this.moveAll(['waiting'], 'paused');
    },
    resumeAll: async () => {
      await this.record('resumeAll', []);
      this.moveAll(['paused'], 'waiting');
    },
    cancelAll: async () => {
      await this.record('cancelAll', []);
      this.moveAll(['waiting', 'paused', 'held', 'failed'], 'cancelled');
    },
    retryAll: async () => {
      await this.record('retryAll', []);
      this.moveAll(['failed'], 'waiting');
    },
    resumeAccessHolds: async () => {
      await this.record('resumeAccessHolds', []);
      this.moveAll(['held'], 'waiting');
    },
    rename: async (id, name) => {
      await this.record('rename', [id, name]);
      const item = this.store.get(id);
      if (item) this.store.set(id, { ...item, name });
      this.move(id, 'waiting');
      this.changed();
    },
    remove: async (id) => {
      await this.record('remove', [id]);
      this.store.delete(id);
      this.changed();
    },
    decide: async (id, decision) => {
      await this.record('decide', [id, decision]);
      this.move(id, decision === 'giveUp' ? 'cancelled' : 'waiting');
      this.changed();
    },
    reattach: async (id, file) => {
      await this.record('reattach', [id, file]);
      const item = this.store.get(id);
      return item?.state === 'held' && item.size === file.size;
    },
    exportQueue: async () => {
      await this.record('exportQueue', []);
      return {
        format: 'cloud-drive-queue',
        version: 1,
        exportedAt: 0,
        items: [...this.store.values()].map(({ id, direction, name, size, target: t, state }) => ({ id, direction, name, size, target: t, state })),
      };
    },
    clearFinished: async () => {
      await this.record('clearFinished', []);
      for (const [id, item] of this.store) if (item.state === 'done' || item.state === 'cancelled') this.store.delete(id);
      this.changed();
    },
    clearFailed: async () => {
      await this.record('clearFailed', []);
      for (const [id, item] of this.store) if (item.state === 'failed') this.store.delete(id);
      this.changed();
    },
    getSnapshot: async () => {
      await this.record('getSnapshot', []);
      return this.snapshot();
    },
    // Like the real engine (ThrottledNotifier): a new subscriber gets the current snapshot at once.
    subscribe: async (listener) => {
      await this.record('subscribe', []);
      const id = this.nextListener++;
      this.listeners.set(id, listener);
      listener(this.snapshot());
      return id;
    },
    unsubscribe: async (id) => {
      this.listeners.delete(id);
    },
    configure: async (config) => {
      this.configs.push({ ...config });
    },
  };
}

/** Creates the engines of one origin and remembers them all (which tab created each, in order). */
export function createEngineFactory(options: { startMs?: number } = {}) {
  const store = new Map<string, TransferItemView>();
  let seq = 0;
  const engines: FakeEngine[] = [];
  return {
    engines,
    store,
    create(tabId: string): FakeEngine {
      const engine = new FakeEngine(tabId, store, () => `item-${++seq}`, options.startMs ?? 0);
      engines.push(engine);
      return engine;
    },
  };
}

// ---- tabs ----------------------------------------------------------------------------------------

export interface TestTab {
  id: string;
  api: TabEngine<FakeFile>;
  channel: TestChannel;
  /** Every role watchRole reported, in order. */
  roles: TabRole[];
  /** Every snapshot this tab's subscriber received, in order. */
  snapshots: TransferSnapshot[];
  /** What this tab's page subscriber (`subscribeChanges`) received, in order… */
  changes: SnapshotChanges[];
  /** …and the snapshots the page rebuilt from them. */
  assembled: TransferSnapshot[];
  closed: boolean;
  /** Aborting it shuts the tab's engine side down cleanly (createTabEngine's `signal`). */
  lifetime: AbortController;
}

let originCount = 0;

/**
 * One origin: tabs opened on it share the channel name, the locks (unless `locks: null`, the fallback
 * election) and the engine factory. `hub` replaces the BroadcastChannel (fake-timer tests).
 */
export function createOrigin(options: { locks?: null; hub?: ReturnType<typeof createHub>; startMs?: number } = {}) {
  const name = `${ENGINE_CHANNEL}-test-${++originCount}`;
  const locks = options.locks === null ? null : createFifoLocks();
  const factory = createEngineFactory({ startMs: options.startMs });
  const tabs: TestTab[] = [];

  async function open(id: string, config?: EngineConfig): Promise<TestTab> {
    const channel = options.hub ? options.hub.channel() : broadcastChannel(name);
    const lifetime = new AbortController();
    const api = createTabEngine<FakeFile>({
      tabId: id,
      channel,
      locks: locks ? locks.forTab(id) : null,
      createEngine: () => factory.create(id).api,
      signal: lifetime.signal,
    });
    const tab: TestTab = { id, api, channel, roles: [], snapshots: [], changes: [], assembled: [], closed: false, lifetime };
    tabs.push(tab);
    if (config) await api.configure(config);
    await api.watchRole((role) => tab.roles.push(role));
    await api.subscribe((snapshot) => tab.snapshots.push(snapshot));
    // As the page does (use-transfer-engine.ts).
    const assembler = new SnapshotAssembler();
    await api.subscribeChanges((changes) => {
      tab.changes.push(structuredClone(changes));
      const snapshot = assembler.apply(structuredClone(changes));
      if (!snapshot) throw new Error(`tab ${id}: update ${changes.seq} does not follow the last one`);
      tab.assembled.push(snapshot);
    });
    return tab;
  }

  /**
   * The tab (and its worker) dies: its messages stop both ways and the browser drops its lock. Its
   * timers are stopped too, as a dead worker's are (through the tab's signal).
   */
  function close(tab: TestTab): void {
    tab.closed = true;
    tab.channel.close();
    locks?.release(tab.id);
    tab.lifetime.abort();
  }

  return {
    name,
    locks,
    factory,
    tabs,
    open,
    close,
    closeAll: () => tabs.forEach(close),
    /** The open tabs whose last reported role is 'leader'. */
    leaders: () => tabs.filter((t) => !t.closed && t.roles.at(-1) === 'leader'),
    engineOf: (tab: TestTab): FakeEngine | undefined => factory.engines.find((e) => e.createdBy === tab.id),
  };
}

export const tick = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));
