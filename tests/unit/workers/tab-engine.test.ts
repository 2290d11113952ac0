/**
 * The one-engine-per-origin protocol (workers/tabs/tab-engine.ts) with several tabs in one process:
 * real createTabEngine instances over Node's BroadcastChannel (or a timer-driven hub for the fallback
 * election), a FIFO Web Locks stand-in, and recording fake engines (tab-test-kit.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENGINE_LOCK, type TabMessage, type TabRole } from '../../../workers/tabs/tab-engine';
import { broadcastChannel, createHub, createOrigin, target, tick, type TestTab } from './tab-test-kit';

const origins: Array<ReturnType<typeof createOrigin>> = [];
function origin(options: Parameters<typeof createOrigin>[0] = {}) {
  const created = createOrigin(options);
  origins.push(created);
  return created;
}

afterEach(() => {
  for (const o of origins.splice(0)) o.closeAll();
  vi.useRealTimers();
});

const lastStates = (tab: TestTab) => tab.snapshots.at(-1)?.items.map((i) => `${i.id}:${i.state}`);

/** Waits until `tab` leads and every other open tab has received a snapshot (so it knows the leader). */
async function settled(o: ReturnType<typeof createOrigin>, leader: TestTab, others: TestTab[]): Promise<void> {
  await vi.waitFor(() => expect(leader.roles.at(-1)).toBe('leader'), { timeout: 2_000 });
  await vi.waitFor(() => expect(others.every((t) => t.snapshots.length > 0)).toBe(true), { timeout: 2_000 });
  expect(o.leaders()).toEqual([leader]);
}

describe('one engine per origin (Web Locks)', () => {
  it('elects exactly one leader among four tabs, and only the leader creates an engine', async () => {
    const o = origin();
    const [a, b, c, d] = [await o.open('tab-a'), await o.open('tab-b'), await o.open('tab-c'), await o.open('tab-d')] as TestTab[] as [TestTab, TestTab, TestTab, TestTab];
    await settled(o, a, [b, c, d]);

    expect(a.roles).toEqual(['follower', 'leader']);
    for (const follower of [b, c, d]) expect(follower.roles).toEqual(['follower']);
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a']);
    expect(o.factory.engines[0]!.callsOf('subscribe')).toHaveLength(1);
    expect(o.locks!.holder(ENGINE_LOCK)).toBe('tab-a');
    expect(o.locks!.waiters(ENGINE_LOCK)).toEqual(['tab-b', 'tab-c', 'tab-d']);
  });

  it("runs a follower's commands on the leader and answers the follower; errors come back as rejections", async () => {
    const o = origin();
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');
    await settled(o, a, [b]);
    const engine = o.engineOf(a)!;

    await expect(b.api.enqueueUploads([{ name: 'a.txt', size: 3 }], target)).resolves.toEqual(['item-1']);
    expect(engine.callsOf('enqueueUploads')).toEqual([[[{ name: 'a.txt', size: 3 }], target]]);
    await expect(b.api.pause('item-1')).resolves.toBeUndefined();
    const fromFollower = await b.api.getSnapshot();
    expect(fromFollower.items.map((i) => [i.id, i.name, i.state])).toEqual([['item-1', 'a.txt', 'paused']]);
    // The leader's own calls run on the same engine.
    expect(await a.api.getSnapshot()).toEqual(fromFollower);

    await b.api.cancel('item-1');
    await expect(b.api.pause('item-1')).rejects.toThrow('illegal transfer transition cancelled → paused');
    await expect(b.api.retry('no-such-item')).rejects.toThrow('没有这个传输项: no-such-item');
    expect(engine.callsOf('pause')).toEqual([['item-1'], ['item-1']]);
    expect(o.factory.engines).toHaveLength(1);
  });

  it("delivers the leader's snapshots to every tab's subscribers, and the current one to a tab opened later", async () => {
    const o = origin();
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');
    const c = await o.open('tab-c');
    await settled(o, a, [b, c]);

    await b.api.enqueueUploads([{ name: 'a.txt', size: 3 }], target);
    await vi.waitFor(() => {
      for (const tab of [a, b, c]) expect(lastStates(tab)).toEqual(['item-1:waiting']);
    });
    await c.api.pause('item-1');
    await vi.waitFor(() => {
      for (const tab of [a, b, c]) expect(lastStates(tab)).toEqual(['item-1:paused']);
    });

    // Nothing changes any more: the late tab gets the current snapshot from the leader's answer to 'hello'.
    const d = await o.open('tab-d');
    await vi.waitFor(() => expect(lastStates(d)).toEqual(['item-1:paused']));
    expect(d.roles).toEqual(['follower']);
  });

  it("sends each page, and the other tabs, only the items that changed; a tab opened later gets them all", async () => {
    const o = origin();
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');
    await settled(o, a, [b]);
    const states = (s: { items: Array<{ id: string; state: string }> } | undefined) => s?.items.map((i) => `${i.id}:${i.state}`);

    await b.api.enqueueUploads([{ name: '1.txt', size: 1 }, { name: '2.txt', size: 2 }, { name: '3.txt', size: 3 }], target);
    await vi.waitFor(() => {
      for (const tab of [a, b]) expect(states(tab.assembled.at(-1))).toEqual(['item-1:waiting', 'item-2:waiting', 'item-3:waiting']);
    });
    await b.api.pause('item-2');
    await vi.waitFor(() => {
      for (const tab of [a, b]) expect(states(tab.assembled.at(-1))).toEqual(['item-1:waiting', 'item-2:paused', 'item-3:waiting']);
    });
    for (const tab of [a, b]) {
      expect(tab.changes[0]).toMatchObject({ full: true });
      expect(tab.changes.at(-1)).toMatchObject({ full: false, removed: [] });
      expect(tab.changes.at(-1)!.items.map((i) => i.id)).toEqual(['item-2']);
      // The page's rebuilt snapshot is the one a whole-snapshot subscriber gets.
      expect(tab.assembled.at(-1)).toEqual(tab.snapshots.at(-1));
    }

    const c = await o.open('tab-c');
    await vi.waitFor(() => expect(states(c.assembled.at(-1))).toEqual(['item-1:waiting', 'item-2:paused', 'item-3:waiting']));
    expect(c.changes[0]).toMatchObject({ full: true });
    await c.api.remove('item-1');
    await vi.waitFor(() => {
      for (const tab of [a, b, c]) expect(states(tab.assembled.at(-1))).toEqual(['item-2:paused', 'item-3:waiting']);
    });
    expect(c.changes.at(-1)).toMatchObject({ full: false, items: [], removed: ['item-1'] });
  });

  it('posts no changes on the channel while it is the only tab; a tab opened later gets everything, then changes', async () => {
    const o = origin();
    const a = await o.open('tab-a');
    await vi.waitFor(() => expect(a.roles.at(-1)).toBe('leader'), { timeout: 2_000 });
    const states = (s: { items: Array<{ id: string; state: string }> } | undefined) => s?.items.map((i) => `${i.id}:${i.state}`);
    await a.api.enqueueUploads([{ name: '1.txt', size: 1 }, { name: '2.txt', size: 2 }], target);
    await a.api.pause('item-1');
    await vi.waitFor(() => expect(states(a.assembled.at(-1))).toEqual(['item-1:paused', 'item-2:waiting']));
    await tick(50);
    // Nobody listens yet: the page got its updates, the channel none.
    expect(a.channel.sent.filter((m) => m.type === 'changes')).toEqual([]);

    const b = await o.open('tab-b');
    await vi.waitFor(() => expect(states(b.assembled.at(-1))).toEqual(['item-1:paused', 'item-2:waiting']));
    await a.api.pause('item-2');
    await vi.waitFor(() => expect(states(b.assembled.at(-1))).toEqual(['item-1:paused', 'item-2:paused']));
    expect(b.snapshots.at(-1)).toEqual(a.snapshots.at(-1));
  });

  it('keeps calls made before any tab leads, and answers them once a leader is elected', async () => {
    const o = origin();
    // The lock is still held by a worker on its way out (a reloading tab): nobody leads yet.
    let releaseOld!: () => void;
    void o.locks!.forTab('old-worker').request(ENGINE_LOCK, () => new Promise<void>((resolve) => (releaseOld = resolve)));
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');

    const fromB = b.api.enqueueUploads([{ name: 'early.txt', size: 5 }], target);
    const fromA = a.api.getSnapshot();
    let answered = false;
    void Promise.all([fromB, fromA]).then(() => (answered = true));
    await tick(50);
    expect(answered).toBe(false);
    expect(o.factory.engines).toHaveLength(0);

    releaseOld();
    // a leads now; b's request is re-sent to it, and a runs its own pending call itself.
    await expect(fromB).resolves.toEqual(['item-1']);
    await fromA;
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a']);
    expect(o.engineOf(a)!.callsOf('enqueueUploads')).toHaveLength(1);
    expect(o.engineOf(a)!.callsOf('getSnapshot')).toHaveLength(1);
  });

  it('hands over when the leader closes: the next tab creates the engine and answers every call left pending, once', async () => {
    const o = origin();
    const a = await o.open('tab-a', { apiBase: '/a', platform: 'web', networkEnv: 'internal' });
    const b = await o.open('tab-b', { apiBase: '/b', platform: 'web', networkEnv: 'public' });
    const c = await o.open('tab-c');
    await settled(o, a, [b, c]);
    const engineA = o.engineOf(a)!;
    expect(engineA.configs).toEqual([{ apiBase: '/a', platform: 'web', networkEnv: 'internal' }]);

    await expect(c.api.enqueueUploads([{ name: 'one.txt', size: 1 }, { name: 'two.txt', size: 2 }], target)).resolves.toEqual(['item-1', 'item-2']);
    // a receives c's pause but its tab closes before it answers.
    engineA.stalled.add('pause');
    const pause = c.api.pause('item-1');
    await vi.waitFor(() => expect(engineA.callsOf('pause')).toEqual([['item-1']]));
    const sentBeforeClose = c.channel.sent.length;
    o.close(a);

    // Calls made during the hand-over, from a follower and from the tab about to lead.
    const cancel = c.api.cancel('item-2');
    const snapshotOfB = b.api.getSnapshot();

    await expect(pause).resolves.toBeUndefined();
    await expect(cancel).resolves.toBeUndefined();
    // b ran its own call as soon as it led, before the re-sent ones arrived.
    expect((await snapshotOfB).items.map((i) => i.id)).toEqual(['item-1', 'item-2']);
    expect((await b.api.getSnapshot()).items.map((i) => `${i.id}:${i.state}`)).toEqual(['item-1:paused', 'item-2:cancelled']);

    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a', 'tab-b']);
    const engineB = o.engineOf(b)!;
    // b configured its engine with its own settings, and ran each pending call exactly once…
    expect(engineB.configs).toEqual([{ apiBase: '/b', platform: 'web', networkEnv: 'public' }]);
    expect(engineB.callsOf('pause')).toEqual([['item-1']]);
    expect(engineB.callsOf('cancel')).toEqual([['item-2']]);
    // …but not the enqueue a had answered already: c did not send it again.
    expect(engineB.callsOf('enqueueUploads')).toEqual([]);
    const resent = c.channel.sent.slice(sentBeforeClose).filter((m): m is Extract<TabMessage, { type: 'request' }> => m.type === 'request');
    expect(new Set(resent.map((m) => m.method))).toEqual(new Set(['pause', 'cancel']));
    expect(engineA.callsOf('cancel')).toEqual([]);

    expect(b.roles).toEqual(['follower', 'leader']);
    expect(c.roles).toEqual(['follower']);
    expect(o.leaders()).toEqual([b]);
    await vi.waitFor(() => expect(lastStates(c)).toEqual(['item-1:paused', 'item-2:cancelled']));
  });

  it("aborting a leader's signal releases the engine lock itself and silences the tab; the next tab takes over", async () => {
    const o = origin();
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');
    await settled(o, a, [b]);

    // Only the signal: the channel stays open and the kit does not drop a's lock for it.
    a.lifetime.abort();
    await vi.waitFor(() => expect(o.locks!.holder(ENGINE_LOCK)).toBe('tab-b'));
    await vi.waitFor(() => expect(b.roles).toEqual(['follower', 'leader']));
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a', 'tab-b']);

    // a neither posts (no heartbeat) nor answers any more.
    const sentByA = a.channel.sent.length;
    await tick(1_200); // longer than one heartbeat
    expect(a.channel.sent.length).toBe(sentByA);
    await expect(b.api.getSnapshot()).resolves.toMatchObject({ items: [] });
    expect(o.engineOf(a)!.callsOf('getSnapshot')).toEqual([]);
  });

  it('a leader still starting its engine does not ping-pong hello/leader with tabs that have no snapshot yet', async () => {
    // The real engine loads the persisted queue before its first snapshot; a browser restoring a
    // session opens every tab at once, so the followers' 'hello' reach a leader that is not ready.
    const o = origin({ startMs: 300 });
    const tabs = [await o.open('tab-a'), await o.open('tab-b'), await o.open('tab-c'), await o.open('tab-d')];
    const started = Date.now();
    await vi.waitFor(() => expect(tabs.every((t) => t.snapshots.length > 0)).toBe(true), { timeout: 3_000, interval: 10 });
    expect(Date.now() - started).toBeLessThan(1_000);
    // hello (+ one repeat at most), and from the leader: its snapshot, 'leader', answers to hellos.
    for (const tab of tabs) expect(tab.channel.sent.length).toBeLessThan(10);
  });

  it('runs a request that arrives twice once, and answers it once', async () => {
    const o = origin();
    const a = await o.open('tab-a');
    await vi.waitFor(() => expect(a.roles.at(-1)).toBe('leader'));
    // A tab's re-send can cross the leader's reply: the same request key reaches the leader twice.
    const raw = broadcastChannel(o.name);
    const replies: Array<Extract<TabMessage, { type: 'reply' }>> = [];
    raw.addEventListener('message', (event) => {
      if (event.data.type === 'reply' && event.data.to === 'raw-tab') replies.push(event.data);
    });
    try {
      const enqueue: TabMessage = { type: 'request', from: 'raw-tab', reqId: 1, method: 'enqueueUploads', args: [[{ name: 'x', size: 1 }], target] };
      raw.postMessage(enqueue);
      raw.postMessage(enqueue);
      raw.postMessage({ type: 'request', from: 'raw-tab', reqId: 2, method: 'getSnapshot', args: [] });
      await vi.waitFor(() => expect(replies.map((r) => r.reqId).sort()).toEqual([1, 2]));
      await tick(50);
      expect(replies.filter((r) => r.reqId === 1)).toEqual([{ type: 'reply', to: 'raw-tab', reqId: 1, ok: true, value: ['item-1'] }]);
      expect(o.engineOf(a)!.callsOf('enqueueUploads')).toHaveLength(1);
      const snapshotReply = replies.find((r) => r.reqId === 2);
      expect(snapshotReply?.ok && (snapshotReply.value as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      raw.close();
    }
  });

  it('watchRole reports the current role at once and every change after', async () => {
    const o = origin();
    const a = await o.open('tab-a');
    const b = await o.open('tab-b');
    await settled(o, a, [b]);
    const late: TabRole[] = [];
    await b.api.watchRole((role) => late.push(role));
    await vi.waitFor(() => expect(late).toEqual(['follower']));
    // The first report is the role at the time of the call, not a repeat of a change that follows it.
    const c = await o.open('tab-c');
    await vi.waitFor(() => expect(c.roles).toEqual(['follower']));

    o.close(a);
    await vi.waitFor(() => expect(late).toEqual(['follower', 'leader']));
    expect(b.roles).toEqual(['follower', 'leader']);
    expect(a.roles).toEqual(['follower', 'leader']);
  });
});

describe('fallback election (no Web Locks)', () => {
  it('three tabs opened together end with exactly one leader and one engine, and stay so', async () => {
    vi.useFakeTimers();
    const hub = createHub();
    const o = origin({ locks: null, hub });
    const tabs = [await o.open('tab-b'), await o.open('tab-a'), await o.open('tab-c')];

    await vi.advanceTimersByTimeAsync(3_000);
    // Simultaneous claims: the smallest tab id wins.
    expect(o.leaders().map((t) => t.id)).toEqual(['tab-a']);
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a']);
    for (const tab of tabs) expect(lastStates(tab)).toEqual([]);

    // Heartbeats keep the followers from claiming again.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(o.factory.engines).toHaveLength(1);
    for (const tab of tabs) expect(tab.roles).toEqual(tab.id === 'tab-a' ? ['follower', 'leader'] : ['follower']);

    const ids = tabs[0]!.api.enqueueUploads([{ name: 'a.txt', size: 3 }], target);
    await vi.advanceTimersByTimeAsync(100);
    await expect(ids).resolves.toEqual(['item-1']);
  });

  it('when the leader goes silent, exactly one follower takes over and answers the calls left pending', async () => {
    vi.useFakeTimers();
    const hub = createHub();
    const o = origin({ locks: null, hub });
    const [a, b, c] = [await o.open('tab-a'), await o.open('tab-b'), await o.open('tab-c')] as [TestTab, TestTab, TestTab];
    await vi.advanceTimersByTimeAsync(3_000);
    expect(o.leaders()).toEqual([a]);
    const enqueued = c.api.enqueueUploads([{ name: 'a.txt', size: 3 }], target);
    await vi.advanceTimersByTimeAsync(100); // the hub delivers on the (fake) timers
    await expect(enqueued).resolves.toEqual(['item-1']);
    o.close(a);
    const pause = c.api.pause('item-1');
    let paused = false;
    void pause.then(() => (paused = true));

    await vi.advanceTimersByTimeAsync(2_000);
    expect(paused).toBe(false); // no leader yet: the call waits
    await vi.advanceTimersByTimeAsync(5_000);
    expect(paused).toBe(true);
    expect([b, c].filter((t) => t.roles.at(-1) === 'leader')).toHaveLength(1);
    expect(o.factory.engines).toHaveLength(2);
    const successor = o.factory.engines[1]!;
    expect(successor.callsOf('pause')).toEqual([['item-1']]);
    expect(successor.callsOf('enqueueUploads')).toEqual([]);
  });

  it('a tab that hears a claim while not claiming lets it settle: one leader even when the engine is slow to start', async () => {
    vi.useFakeTimers();
    const o = origin({ locks: null, hub: createHub(), startMs: 500 });
    // a claims at 500 ms and wins at 900, but announces itself only when its engine is ready (1400).
    // b, opened 250 ms later, would claim at 750 ms: a's claim went by while b was not claiming.
    await o.open('tab-a');
    await vi.advanceTimersByTimeAsync(250);
    await o.open('tab-b');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-a']);
    expect(o.leaders().map((t) => t.id)).toEqual(['tab-a']);
  });

  it('a leader whose engine is still starting answers a claim at once, so the claimer stands down', async () => {
    vi.useFakeTimers();
    const o = origin({ locks: null, hub: createHub(), startMs: 2_000 });
    await o.open('tab-b');
    await vi.advanceTimersByTimeAsync(1_000); // b leads since 900 ms; its engine is ready at 2900 ms
    expect(o.factory.engines).toHaveLength(1);
    // a is not answered 'hello' by a leader that has no snapshot to give yet; it claims at 500 ms.
    const a = await o.open('tab-a');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(o.factory.engines.map((e) => e.createdBy)).toEqual(['tab-b']);
    expect(a.roles).toEqual(['follower']);
    expect(lastStates(a)).toEqual([]);
  });
});
