import { randomUUID } from 'node:crypto';
import { ERRORS } from '../../../common/api/errors';
import type { FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { DavLockRepository, DavLockRow } from '../../repositories/dav-lock-repository';
import type { FileRepository } from '../../repositories/file-repository';
import type { Caller } from '../../services/caller';
import type { FileStateService } from '../../services/file-state-service';
import { LOCK_KEYS, type Locks } from '../../services/locks';
import { DavError } from '../context';
import { fromRow, TOKEN_PREFIX, webAppLock, type ActiveLock, type CoveringLock } from './active-lock';

export interface DavLocksDeps {
  repo: DavLockRepository;
  files: FileRepository;
  /** The web app's 锁定/解锁 (its checks, action log and notices): a WebDAV lock takes and ends the product's lock through it. */
  fileState: FileStateService;
  locks: Locks;
}

/** A new lock as LOCK asks for it. */
export interface NewLock {
  scope: 'exclusive' | 'shared';
  deep: boolean;
  ownerXml: string | null;
  seconds: number;
}

/** A resource a lock conflict names: the entry whose lock is in the way. */
export class LockConflict extends DavError {
  constructor(
    message: string,
    readonly lockedEntryId: string,
  ) {
    super(423, message, 'no-conflicting-lock');
  }
}

/**
 * WebDAV locks mapped onto the product's own lock (files.locked_by, the web app's 锁定):
 * - a WebDAV LOCK of an entry nobody locked takes the product lock through FileStateService.lock
 *   (same checks, action log, notices), so the web app shows it 已被 X 锁定; a lock on an entry the
 *   caller had locked in the web app adds a WebDAV lock beside it and leaves the product lock alone;
 * - the web app's lock shows in WebDAV as an exclusive depth-0 lock (active-lock.ts) that refuses
 *   other people; its locker may still change the entry (the product's rule), token or not;
 * - a WebDAV lock stays valid only while files.locked_by names its user: the web app's 解锁 (the
 *   locker's or an administrator's) ends it;
 * - what the product cannot say (tokens, shared locks, depth infinity, timeouts) lives in dav_locks
 *   (migration 0096). Shared locks are granted to one person at a time: locked_by names one locker.
 * LOCK decisions of a tenant run one at a time across server processes (Locks, advisory on PostgreSQL).
 */
export class DavLocks {
  constructor(private readonly deps: DavLocksDeps) {}

  /**
   * The locks covering each of these entries, by entry id: WebDAV locks on the entry itself, Depth
   * infinity locks on its ancestors, and the web app's lock of the entry. One chain look-up per
   * distinct parent and one lock query for the lot (a PROPFIND page shares its parent).
   */
  async covering(tenantId: string, rows: readonly FilesTable[], now = Date.now()): Promise<Map<string, CoveringLock[]>> {
    const out = new Map<string, CoveringLock[]>();
    if (rows.length === 0) return out;
    const chains = new Map<string, string[]>();
    for (const parentId of new Set(rows.map((r) => r.parent_id).filter((p): p is string => Boolean(p)))) {
      const chain = await this.deps.files.pathTo(tenantId, parentId);
      // nearest first: the parent, its parent, …
      chains.set(parentId, chain.map((c) => c.id).reverse());
    }
    const ids = new Set<string>(rows.map((r) => r.id));
    for (const c of chains.values()) for (const id of c) ids.add(id);
    await this.expire(tenantId, [...ids], now);
    const lockRows = await this.deps.repo.onEntries(tenantId, [...ids], now);
    const byEntry = new Map<string, DavLockRow[]>();
    for (const l of lockRows) byEntry.set(l.entry_id, [...(byEntry.get(l.entry_id) ?? []), l]);
    const names = await this.deps.files.nickNames([...new Set(rows.map((r) => r.locked_by).filter((u): u is string => Boolean(u)))]);
    for (const row of rows) {
      const own = byEntry.get(row.id) ?? [];
      const list: CoveringLock[] = own.map((l) => ({ ...fromRow(l), levels: 0 }));
      const chain = row.parent_id ? (chains.get(row.parent_id) ?? []) : [];
      chain.forEach((ancestorId, i) => {
        for (const l of byEntry.get(ancestorId) ?? []) if (l.deep === 1) list.push({ ...fromRow(l), levels: i + 1 });
      });
      if (row.locked_by && !own.some((l) => l.user_id === row.locked_by)) list.push({ ...webAppLock(row.id, row.locked_by, names.get(row.locked_by) ?? ''), levels: 0 });
      out.set(row.id, list);
    }
    return out;
  }

  /** The WebDAV locks on the members (any level) of a folder, not on the folder itself. */
  async below(tenantId: string, folderId: string, now = Date.now()): Promise<ActiveLock[]> {
    return (await this.deps.repo.belowEntry(tenantId, folderId, now)).map(fromRow);
  }

  /** A valid WebDAV lock by its token (or undefined). */
  async byToken(tenantId: string, token: string, now = Date.now()): Promise<ActiveLock | undefined> {
    const row = await this.deps.repo.byToken(tenantId, token, now);
    return row && fromRow(row);
  }

  /**
   * Takes a new lock on an existing entry. Refused (423 no-conflicting-lock) when a lock covering it,
   * or for Depth infinity one below it, is in the way: any exclusive one, or another person's.
   */
  async lock(caller: Caller, row: FilesTable, want: NewLock): Promise<ActiveLock> {
    return this.deps.locks.run(LOCK_KEYS.davLock(caller.tenantId), async () => {
      const now = Date.now();
      const current = (await this.deps.files.findInTenant(caller.tenantId, row.id)) ?? row;
      const covering = (await this.covering(caller.tenantId, [current], now)).get(current.id) ?? [];
      const inTheWay = (l: ActiveLock) => l.userId !== caller.userId || (!l.fromWebApp && (l.scope === 'exclusive' || want.scope === 'exclusive'));
      const blocking = covering.find(inTheWay) ?? (want.deep && current.is_dir === 1 ? (await this.below(caller.tenantId, current.id, now)).find(inTheWay) : undefined);
      if (blocking) throw new LockConflict(blocking.userId === caller.userId ? '该资源已被锁定' : '该资源已被他人锁定', blocking.entryId);
      if (want.deep && current.is_dir === 1) {
        const other = await this.deps.files.lockedByOtherInTree(caller.tenantId, current.id, caller.userId);
        if (other) throw new LockConflict('文件夹中有文件已被他人锁定', other.id);
      }
      const took = !current.locked_by;
      if (took) {
        try {
          await this.deps.fileState.lock(caller, [current.id]);
        } catch (err) {
          if (err instanceof AppError && err.code === ERRORS.LOCKED_BY_OTHER.code) throw new LockConflict('该资源已被他人锁定', current.id);
          throw err;
        }
      }
      const lockRow: DavLockRow = {
        token: `${TOKEN_PREFIX}${randomUUID()}`,
        tenant_id: caller.tenantId,
        entry_id: current.id,
        user_id: caller.userId,
        scope: want.scope,
        deep: want.deep ? 1 : 0,
        owner_xml: want.ownerXml,
        timeout_s: want.seconds,
        expires_at: now + want.seconds * 1000,
        took_product_lock: took ? 1 : 0,
        created_at: now,
      };
      await this.deps.repo.insert(lockRow);
      return fromRow(lockRow);
    });
  }

  /** Refreshes the caller's lock named by `token` to `seconds` from now. */
  async refresh(caller: Caller, lock: ActiveLock, seconds: number): Promise<ActiveLock> {
    if (lock.fromWebApp) return lock; // no timeout to extend
    if (lock.userId !== caller.userId) throw new DavError(403, '只能刷新自己的锁');
    const expiresAt = Date.now() + seconds * 1000;
    await this.deps.repo.refresh(lock.token, seconds, expiresAt);
    return { ...lock, expiresAt };
  }

  /**
   * Ends a lock: the lock's owner or an administrator. The web app's lock (its derived token) is
   * ended through the web app's 解锁; a WebDAV lock that took the product lock gives it back when it
   * was its person's last WebDAV lock on the entry.
   */
  async unlock(caller: Caller, lock: ActiveLock): Promise<void> {
    if (lock.userId !== caller.userId && caller.role !== 'admin') throw new DavError(403, '只有锁定者或管理员可以解锁');
    if (lock.fromWebApp) {
      await this.deps.fileState.unlock(caller, [lock.entryId]);
      return;
    }
    await this.deps.locks.run(LOCK_KEYS.davLock(caller.tenantId), async () => {
      if (!(await this.deps.repo.remove(lock.token))) return;
      if (lock.tookProductLock && !(await this.deps.repo.passOnProductLock(lock.entryId, lock.userId, Date.now()))) {
        await this.deps.fileState.unlock(caller, [lock.entryId]);
      }
    });
  }

  /**
   * Ends lapsed locks on these entries (or, without ids, up to `limit` of the tenant-wide oldest: the
   * sweeper), giving back the product locks they took.
   */
  async expire(tenantId: string | null, entryIds: readonly string[] | null, now = Date.now(), limit = 500): Promise<number> {
    const lapsed = await this.deps.repo.lapsed(now, limit, tenantId, entryIds);
    for (const row of lapsed) {
      if (!(await this.deps.repo.remove(row.token))) continue;
      if (row.took_product_lock === 1 && !(await this.deps.repo.passOnProductLock(row.entry_id, row.user_id, now))) {
        await this.deps.repo.releaseProductLock(row.tenant_id, row.entry_id, row.user_id);
      }
    }
    return lapsed.length;
  }

  /** The sweeper's pass: lapsed locks anywhere. */
  async sweep(now: number): Promise<void> {
    while ((await this.expire(null, null, now)) === 500) {
      /* next batch */
    }
  }
}
