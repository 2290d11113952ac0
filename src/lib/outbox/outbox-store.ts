/**
 * The persisted outbox (IndexedDB through idb-keyval, which the data layer already loads at boot):
 * changes made offline, in the order they were made, per account partition. Every tab of the origin
 * sees the same rows: each write is announced on a BroadcastChannel (watchOutbox), and one tab at a
 * time replays them (outbox-replayer.ts). Dexie did this before; the main thread now does without its
 * 30 kB, which the file page paid for on every load.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';

/** Waiting to be sent; 'failed' and 'conflict' wait for the user (retry with a decision, or discard). */
export type OutboxState = 'pending' | 'failed' | 'conflict';

export interface OutboxRow<P = unknown> {
  /** Order of creation (auto-increment): replay follows it. */
  seq?: number;
  /** Sent as X-Client-Op-Id: the server applies it once, so a replay after a lost answer is harmless. */
  opId: string;
  /** The account partition it belongs to (data/account.ts partitionOf). */
  account: string;
  /** Which executor sends it (registered by the feature that owns the operation). */
  kind: string;
  payload: P;
  /** One line for the user: 新建文件夹「报告」. */
  label: string;
  state: OutboxState;
  /** Why it failed or what clashes, in Chinese, for the outbox list. */
  reason: string | null;
  createdAt: number;
  attempts: number;
}

/** The key holding the next sequence number (rows are keyed by their number). */
const NEXT_SEQ = 'next-seq';
const CHANNEL = 'drive-outbox';

export interface OutboxStore {
  add<P>(row: Omit<OutboxRow<P>, 'seq'>): Promise<number>;
  /** The account's rows in replay order. */
  list(account: string): Promise<OutboxRow[]>;
  update(seq: number, changes: Partial<OutboxRow>): Promise<void>;
  remove(seq: number): Promise<void>;
  /** Every row of the account goes (the account's session ended: its unsent changes are its own). */
  clearAccount(account: string): Promise<void>;
  /** Calls `onChange` after every write to the outbox, from this tab or another; returns the unsubscribe. */
  watch(onChange: () => void): () => void;
}

/** The outbox of Dexie's time (same database name, table `ops` keyed by `seq`): its rows move over once. */
const LEGACY_DB = 'drive-outbox';

async function legacyRows(): Promise<OutboxRow[]> {
  if (typeof indexedDB.databases === 'function' && !(await indexedDB.databases()).some((d) => d.name === LEGACY_DB)) return [];
  const db = await promisifyRequest(indexedDB.open(LEGACY_DB));
  try {
    if (!db.objectStoreNames.contains('ops')) return [];
    return await promisifyRequest<OutboxRow[]>(db.transaction('ops', 'readonly').objectStore('ops').getAll());
  } finally {
    db.close();
  }
}

export function openOutboxStore(name = 'drive-outbox-v2'): OutboxStore {
  const store: UseStore = createStore(name, 'ops');
  const listeners = new Set<() => void>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`${CHANNEL}:${name}`) : null;
  channel?.addEventListener('message', () => listeners.forEach((l) => l()));
  const changed = () => {
    listeners.forEach((l) => l());
    channel?.postMessage('changed');
  };
  const allRows = () =>
    store('readonly', async (os) => {
      const [keys, values] = await Promise.all([promisifyRequest(os.getAllKeys()), promisifyRequest<unknown[]>(os.getAll())]);
      return values.filter((_v, i) => typeof keys[i] === 'number') as OutboxRow[];
    });
  // Both in one transaction: two tabs adding at once still get different numbers.
  const addRows = (rows: Omit<OutboxRow, 'seq'>[]) =>
    store('readwrite', async (os) => {
      let seq = (await promisifyRequest<number | undefined>(os.get(NEXT_SEQ))) ?? 1;
      const first = seq;
      for (const row of rows) {
        os.put({ ...row, seq }, seq);
        seq++;
      }
      os.put(seq, NEXT_SEQ);
      await promisifyRequest(os.transaction);
      return first;
    });

  let migrated: Promise<void> | null = null;
  const ready = () =>
    (migrated ??= name === 'drive-outbox-v2'
      ? legacyRows()
          .then(async (rows) => {
            if (rows.length === 0) return;
            await addRows(rows.sort((a, b) => a.seq! - b.seq!).map(({ seq: _seq, ...row }) => row));
            indexedDB.deleteDatabase(LEGACY_DB);
            changed();
          })
          .catch((e: unknown) => console.warn('outbox: earlier rows could not be moved', e))
      : Promise.resolve());

  return {
    add: async (row) => {
      await ready();
      const seq = await addRows([row as Omit<OutboxRow, 'seq'>]);
      changed();
      return seq;
    },
    list: async (account) => {
      await ready();
      return (await allRows()).filter((r) => r.account === account).sort((a, b) => a.seq! - b.seq!);
    },
    update: async (seq, changes) => {
      await store('readwrite', async (os) => {
        const row = await promisifyRequest<OutboxRow | undefined>(os.get(seq));
        if (row) os.put({ ...row, ...changes, seq }, seq);
        await promisifyRequest(os.transaction);
      });
      changed();
    },
    remove: async (seq) => {
      await store('readwrite', (os) => (os.delete(seq), promisifyRequest(os.transaction)));
      changed();
    },
    clearAccount: async (account) => {
      await ready();
      const seqs = (await allRows()).filter((r) => r.account === account).map((r) => r.seq!);
      await store('readwrite', async (os) => {
        for (const seq of seqs) os.delete(seq);
        await promisifyRequest(os.transaction);
      });
      changed();
    },
    watch: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

/** A fresh client operation id: 128 random bits, URL-safe. */
export function newOpId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
