/**
 * The persisted outbox (IndexedDB, Dexie): changes made offline, in the order they were made, per
 * account partition. Every tab of the origin sees the same rows (Dexie's live queries follow other
 * tabs' writes), and one tab at a time replays them (outbox-replayer.ts).
 */
import Dexie, { type Table } from 'dexie';

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

class OutboxDb extends Dexie {
  ops!: Table<OutboxRow, number>;
  constructor(name: string) {
    super(name);
    this.version(1).stores({ ops: '++seq, account, opId' });
  }
}

export interface OutboxStore {
  add<P>(row: Omit<OutboxRow<P>, 'seq'>): Promise<number>;
  /** The account's rows in replay order. */
  list(account: string): Promise<OutboxRow[]>;
  update(seq: number, changes: Partial<OutboxRow>): Promise<void>;
  remove(seq: number): Promise<void>;
  /** Every row of the account goes (the account's session ended: its unsent changes are its own). */
  clearAccount(account: string): Promise<void>;
  db: Dexie;
}

export function openOutboxStore(name = 'drive-outbox'): OutboxStore {
  const db = new OutboxDb(name);
  return {
    db,
    add: (row) => db.ops.add(row as OutboxRow),
    list: (account) => db.ops.where('account').equals(account).sortBy('seq'),
    update: async (seq, changes) => {
      await db.ops.update(seq, changes);
    },
    remove: (seq) => db.ops.delete(seq),
    clearAccount: async (account) => {
      await db.ops.where('account').equals(account).delete();
    },
  };
}

/** A fresh client operation id: 128 random bits, URL-safe. */
export function newOpId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
