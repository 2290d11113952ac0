import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { replayOnce, retryRow, rewriteIds, type Executors, type OutboxExecutor } from '../../../src/lib/outbox/outbox-replayer';
import { newOpId, openOutboxStore, type OutboxRow, type OutboxStore } from '../../../src/lib/outbox/outbox-store';

/**
 * The outbox on fake-indexeddb: rows replay in the order they were made, each with its op id; a
 * refusal holds it (and the rows behind it) for the user; no answer stops and keeps everything;
 * ids made offline are replaced in later rows once the server names them; accounts stay apart.
 */
const ACCOUNT = 'account:t1:u1';
const OTHER = 'account:t1:u2';
let store: OutboxStore;
let dbSerial = 0;

beforeEach(() => {
  store = openOutboxStore(`outbox-test-${dbSerial++}`);
});

interface Sent {
  kind: string;
  payload: unknown;
  opId: string;
}

class NoAnswer extends Error {}
class Refused extends Error {
  constructor(readonly state: 'failed' | 'conflict') {
    super(state);
  }
}

/** A fake server: records what it got, answers by a script per call. */
function fakeServer(script: (sent: Sent, n: number) => unknown = () => ({ id: 'real' })) {
  const sent: Sent[] = [];
  const executor = (kind: string, sentHook?: OutboxExecutor['sent']): OutboxExecutor => ({
    async send(payload, opId) {
      const s = { kind, payload, opId };
      sent.push(s);
      const answer = script(s, sent.length);
      if (answer instanceof Error) throw answer;
      return answer;
    },
    refusal: (e) => (e instanceof Refused ? { state: e.state, reason: `refused: ${e.state}` } : null),
    sent: sentHook,
  });
  return { sent, executor };
}

async function add(kind: string, payload: unknown, account = ACCOUNT): Promise<OutboxRow> {
  const row = { opId: newOpId(), account, kind, payload, label: kind, state: 'pending' as const, reason: null, createdAt: Date.now(), attempts: 0 };
  const seq = await store.add(row);
  return { ...row, seq };
}

const run = (executors: Executors) => replayOnce(store, ACCOUNT, executors, new AbortController().signal);

describe('outbox replay', () => {
  it('sends rows in the order they were made, each with its own op id, and empties the outbox', async () => {
    const server = fakeServer();
    const rows = [await add('a', { n: 1 }), await add('b', { n: 2 }), await add('a', { n: 3 })];
    expect(await run({ a: server.executor('a'), b: server.executor('b') })).toBe('done');
    expect(server.sent.map((s) => [s.kind, s.payload])).toEqual([['a', { n: 1 }], ['b', { n: 2 }], ['a', { n: 3 }]]);
    expect(server.sent.map((s) => s.opId)).toEqual(rows.map((r) => r.opId));
    expect(new Set(server.sent.map((s) => s.opId)).size).toBe(3);
    expect(await store.list(ACCOUNT)).toEqual([]);
  });

  it('retrying an unchanged row keeps its op id', async () => {
    let refuse = true;
    const server = fakeServer(() => (refuse ? new Refused('failed') : { ok: true }));
    await add('a', { n: 1 });
    expect(await run({ a: server.executor('a') })).toBe('blocked');
    refuse = false;
    await retryRow(store, (await store.list(ACCOUNT))[0]!);
    expect(await run({ a: server.executor('a') })).toBe('done');
    expect(server.sent[1]!.opId).toBe(server.sent[0]!.opId);
  });

  it('no answer: replay stops, every row stays, and the next pass sends the same op id again', async () => {
    let offline = true;
    const server = fakeServer(() => (offline ? new NoAnswer() : { ok: true }));
    const row = await add('a', { n: 1 });
    await add('a', { n: 2 });
    expect(await run({ a: server.executor('a') })).toBe('offline');
    expect((await store.list(ACCOUNT)).map((r) => r.state)).toEqual(['pending', 'pending']);
    offline = false;
    expect(await run({ a: server.executor('a') })).toBe('done');
    expect(server.sent.map((s) => s.opId)).toEqual([row.opId, row.opId, server.sent[2]!.opId]);
  });

  it('a refusal holds the row and every row behind it until the user resolves it', async () => {
    const server = fakeServer((s) => ((s.payload as { n: number }).n === 2 && !(s.payload as { fixed?: boolean }).fixed ? new Refused('conflict') : { ok: true }));
    await add('a', { n: 1 });
    await add('a', { n: 2 });
    await add('a', { n: 3 });
    const executors = { a: server.executor('a') } as Executors;
    expect(await run(executors)).toBe('blocked');
    const held = await store.list(ACCOUNT);
    expect(held.map((r) => [(r.payload as { n: number }).n, r.state, r.reason])).toEqual([
      [2, 'conflict', 'refused: conflict'],
      [3, 'pending', null],
    ]);
    // Another pass does not skip it.
    expect(await run(executors)).toBe('blocked');
    expect(server.sent.filter((s) => (s.payload as { n: number }).n === 3)).toEqual([]);

    await retryRow(store, held[0]!, { n: 2, fixed: true });
    expect(await run(executors)).toBe('done');
    expect(server.sent.map((s) => (s.payload as { n: number }).n)).toEqual([1, 2, 2, 3]);
    // Another payload is another request: a fresh op id (the server keeps the first answer per id).
    expect(server.sent[2]!.opId).not.toBe(server.sent[1]!.opId);
  });

  it('a folder made offline: its temporary id in later rows becomes the id the server gave it', async () => {
    const server = fakeServer((s) => (s.kind === 'mkdir' ? { id: 'server-id-1' } : { ok: true }));
    await add('mkdir', { tempId: 'offline-x', name: 'n' });
    await add('rename', { id: 'offline-x', name: 'm' });
    await add('mkdir', { tempId: 'offline-y', parentId: 'offline-x' });
    const mkdir = server.executor('mkdir', (p, made) => ({ [(p as { tempId: string }).tempId]: (made as { id: string }).id }));
    expect(await run({ mkdir, rename: server.executor('rename') })).toBe('done');
    expect(server.sent.map((s) => s.payload)).toEqual([
      { tempId: 'offline-x', name: 'n' },
      { id: 'server-id-1', name: 'm' },
      { tempId: 'offline-y', parentId: 'server-id-1' },
    ]);
  });

  it("accounts stay apart: one account's rows are never sent for another", async () => {
    const server = fakeServer();
    await add('a', { who: 'other' }, OTHER);
    await add('a', { who: 'me' });
    expect(await run({ a: server.executor('a') })).toBe('done');
    expect(server.sent.map((s) => s.payload)).toEqual([{ who: 'me' }]);
    expect((await store.list(OTHER)).map((r) => r.payload)).toEqual([{ who: 'other' }]);
    await store.clearAccount(OTHER);
    expect(await store.list(OTHER)).toEqual([]);
  });

  it('a row of an unknown kind waits for the user instead of disappearing', async () => {
    await add('gone', {});
    expect(await run({})).toBe('blocked');
    expect((await store.list(ACCOUNT))[0]).toMatchObject({ state: 'failed' });
  });

  it('rewriteIds replaces whole ids only', () => {
    expect(rewriteIds({ a: 'x', b: ['x', 'xx'], c: 'y' }, { x: 'z' })).toEqual({ a: 'z', b: ['z', 'xx'], c: 'y' });
  });

  it('op ids are 22 URL-safe characters and differ', () => {
    const ids = new Set(Array.from({ length: 100 }, newOpId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('the outbox store shared by the tabs of an origin', () => {
  const row = (label: string, account = ACCOUNT): Omit<OutboxRow, 'seq'> => ({ opId: newOpId(), account, kind: 'k', payload: { label }, label, state: 'pending', reason: null, createdAt: Date.now(), attempts: 0 });

  it('two tabs adding at the same moment get distinct numbers, and the order holds', async () => {
    const name = `outbox-tabs-${dbSerial++}`;
    const [tabA, tabB] = [openOutboxStore(name), openOutboxStore(name)];
    const seqs = await Promise.all(Array.from({ length: 20 }, (_v, i) => (i % 2 ? tabA : tabB).add(row(`r${i}`))));
    expect(new Set(seqs).size).toBe(20);
    const listed = await tabB.list(ACCOUNT);
    expect(listed.map((r) => r.seq)).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("a tab hears another tab's writes (the 待同步 count and the replaying tab follow them)", async () => {
    const name = `outbox-watch-${dbSerial++}`;
    const [writer, reader] = [openOutboxStore(name), openOutboxStore(name)];
    let heard = 0;
    const unwatch = reader.watch(() => heard++);
    const seq = await writer.add(row('one'));
    await expect.poll(() => heard).toBe(1);
    await writer.update(seq, { state: 'failed', reason: 'x' });
    await expect.poll(() => heard).toBe(2);
    expect((await reader.list(ACCOUNT))[0]).toMatchObject({ state: 'failed', reason: 'x', seq });
    await writer.remove(seq);
    await expect.poll(() => heard).toBe(3);
    expect(await reader.list(ACCOUNT)).toEqual([]);
    unwatch();
  });

  it("rows kept by the earlier outbox (Dexie's database) move over in their order, once", async () => {
    // The database the Dexie outbox wrote: object store 'ops', key path 'seq', auto-increment.
    const legacy = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('drive-outbox', 10);
      open.onupgradeneeded = () => open.result.createObjectStore('ops', { keyPath: 'seq', autoIncrement: true }).createIndex('account', 'account');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise<void>((resolve) => {
      const tx = legacy.transaction('ops', 'readwrite');
      for (const label of ['first', 'second', 'third']) tx.objectStore('ops').add(row(label));
      tx.oncomplete = () => resolve();
    });
    legacy.close();

    const store = openOutboxStore();
    expect((await store.list(ACCOUNT)).map((r) => r.label)).toEqual(['first', 'second', 'third']);
    await store.add(row('fourth'));
    expect((await openOutboxStore().list(ACCOUNT)).map((r) => r.label)).toEqual(['first', 'second', 'third', 'fourth']);
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain('drive-outbox');
    await store.clearAccount(ACCOUNT);
  });
});
