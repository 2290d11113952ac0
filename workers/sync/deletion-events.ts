/**
 * What the person decides about deletes, kept in the pair's journal (meta rows, JSON):
 *  - `heldDeletes`: the deletes the last pass held back (delete-gate.ts), shown for 确认删除;
 *  - `confirmedDeletes`: the identities the person confirmed (exactly those shown: the token names them);
 *  - `deletionEvents`: every pass that deleted something, as one event: the cloud entries (now in the
 *    recycle bin, by id) and the local files (kept in `.cloud-drive-sync/deleted/<event>/`), so the
 *    whole event is restored in one action. Events are kept KEEP_DAYS days (the recycle bin's own
 *    default retention) and at most KEEP_EVENTS of them; the local copies go with them.
 *
 * Restoring puts the cloud entries back from the recycle bin (a name taken meanwhile: renamed) and the
 * local files back at their paths (a path taken meanwhile: next to it as a conflict copy). The journal
 * forgot them when they were deleted, so the next pass sees them as new on one side and brings the
 * other side along: two-way mode ends with both sides as they were before the event.
 */
import type { DeletionEvent, HeldDeletes, RestoreOutcome } from '../../common/sync/types';
import { DELETION_ITEMS_SHOWN, HELD_ITEMS_SHOWN } from '../../common/sync/types';
import type { DeletedItem } from './executor';
import type { GateVerdict, PlannedDelete } from './delete-gate';
import { tokenOf } from './delete-gate';
import { mkdirs, putBack } from './local-ops';
import { parentPath } from './names';
import type { Journal, LocalFs, RemoteApi } from './ports';

export const KEEP_DAYS = 30;
export const KEEP_EVENTS = 20;

export interface StoredHeld extends Omit<HeldDeletes, 'items'> {
  items: Array<Omit<PlannedDelete, 'op'>>;
}


export interface StoredEvent {
  id: string;
  at: number;
  items: DeletedItem[];
}

async function readJson<T>(journal: Journal, name: string): Promise<T | null> {
  const text = await journal.getMeta(name);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export async function loadHeld(journal: Journal): Promise<StoredHeld | null> {
  return readJson<StoredHeld>(journal, 'heldDeletes');
}

/** Keeps what a pass held back (null: nothing waits any more). */
export async function saveHeld(journal: Journal, verdict: Extract<GateVerdict, { go: false }> | null, syncedFiles: number, now: number): Promise<StoredHeld | null> {
  if (verdict === null) {
    if ((await journal.getMeta('heldDeletes')) !== null) await journal.setMeta('heldDeletes', null);
    return null;
  }
  const held: StoredHeld = {
    token: tokenOf(verdict.held),
    reason: verdict.reason,
    localFiles: verdict.localFiles,
    remoteFiles: verdict.remoteFiles,
    syncedFiles,
    wholePass: verdict.wholePass,
    at: now,
    items: verdict.held.map(({ path, side, isDir, files, identity }) => ({ path, side, isDir, files, identity })),
  };
  await journal.setMeta('heldDeletes', JSON.stringify(held));
  return held;
}

/**
 * Confirms the deletes held now, if they are the ones shown (`token`; null: whatever is held, the
 * headless `--confirm-deletes` after a run that printed them). False when nothing (or another set) waits.
 */
export async function confirmHeld(journal: Journal, token: string | null): Promise<boolean> {
  const held = await loadHeld(journal);
  if (!held || (token !== null && held.token !== token)) return false;
  // Added to what was confirmed before: a pass that then held only the deletes not yet shown (a side
  // emptied meanwhile, say) still knows the first ones were confirmed.
  const confirmed = await confirmedDeletes(journal);
  for (const item of held.items) confirmed.add(item.identity);
  await journal.setMeta('confirmedDeletes', JSON.stringify([...confirmed]));
  return true;
}

export async function confirmedDeletes(journal: Journal): Promise<Set<string>> {
  return new Set((await readJson<string[]>(journal, 'confirmedDeletes')) ?? []);
}

export async function clearConfirmed(journal: Journal): Promise<void> {
  if ((await journal.getMeta('confirmedDeletes')) !== null) await journal.setMeta('confirmedDeletes', null);
}

export function heldSummary(held: StoredHeld | null): HeldDeletes | null {
  if (!held) return null;
  return { ...held, items: held.items.slice(0, HELD_ITEMS_SHOWN).map(({ path, side, isDir, files }) => ({ path, side, isDir, files })) };
}

/** A fresh event id: safe as a folder name. */
export function newEventId(now: number): string {
  return `${now.toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0')}`;
}

export async function loadEvents(journal: Journal): Promise<StoredEvent[]> {
  return (await readJson<StoredEvent[]>(journal, 'deletionEvents')) ?? [];
}

async function saveEvents(journal: Journal, events: readonly StoredEvent[]): Promise<void> {
  await journal.setMeta('deletionEvents', events.length > 0 ? JSON.stringify(events) : null);
}

/** Records a pass's deletes as one event (newest first); drops events past their time, with what they kept. */
export async function recordEvent(journal: Journal, fs: LocalFs, event: StoredEvent, now: number): Promise<StoredEvent[]> {
  const all = [event, ...(await loadEvents(journal))];
  const kept = all.filter((e, i) => i < KEEP_EVENTS && now - e.at <= KEEP_DAYS * 86_400_000);
  await saveEvents(journal, kept);
  for (const gone of all.filter((e) => !kept.includes(e))) await fs.dropKept?.(gone.id);
  return kept;
}

export function eventSummary(e: StoredEvent): DeletionEvent {
  return {
    id: e.id,
    at: e.at,
    local: e.items.filter((i) => i.side === 'local').length,
    remote: e.items.filter((i) => i.side === 'remote').length,
    items: e.items.slice(0, DELETION_ITEMS_SHOWN).map(({ path, side, isDir }) => ({ path, side, isDir })),
  };
}

export interface RestoreDeps {
  fs: LocalFs;
  remote: RemoteApi;
  journal: Journal;
  now(): number;
}

/** Restores one deletion event (see the file's comment); the event is gone afterwards unless something could not come back. */
export async function restoreEvent(deps: RestoreDeps, eventId: string, signal: AbortSignal): Promise<RestoreOutcome & { events: StoredEvent[] }> {
  const events = await loadEvents(deps.journal);
  const event = events.find((e) => e.id === eventId);
  if (!event) throw new Error('没有找到这次删除记录（可能已恢复或已过期）');
  const failed: Array<{ item: DeletedItem; reason: string }> = [];
  let restored = 0;

  const remoteItems = event.items.filter((i) => i.side === 'remote' && i.remoteId);
  if (remoteItems.length > 0) {
    if (!deps.remote.restore) {
      for (const item of remoteItems) failed.push({ item, reason: '无法从回收站恢复' });
    } else {
      const { missing } = await deps.remote.restore(
        remoteItems.map((i) => i.remoteId!),
        signal,
      );
      const gone = new Set(missing);
      for (const item of remoteItems) {
        if (gone.has(item.remoteId!)) failed.push({ item, reason: '回收站中已没有它（已被清除或已恢复）' });
        else restored++;
      }
    }
  }

  // Folders first (parents before children), then the files into them.
  const localItems = event.items.filter((i) => i.side === 'local').sort((a, b) => Number(b.isDir) - Number(a.isDir) || a.path.length - b.path.length);
  for (const item of localItems) {
    try {
      if (item.isDir) {
        if (!(await deps.fs.stat(item.path))) await mkdirs(deps.fs, item.path);
        restored++;
        continue;
      }
      if (!item.keptAs || !(await deps.fs.stat(item.keptAs))) {
        failed.push({ item, reason: '本机没有保留这个文件的副本' });
        continue;
      }
      const parent = parentPath(item.path);
      if (parent !== '' && !(await deps.fs.stat(parent))?.isDir) await mkdirs(deps.fs, parent);
      await putBack(deps.fs, item.keptAs, item.path, deps.now());
      restored++;
    } catch (error) {
      failed.push({ item, reason: error instanceof Error ? error.message : String(error) });
    }
  }

  // What could come back is done; a local file that could not (no permission, say) stays kept for another try.
  const retry = failed.filter((f) => f.item.side === 'local' && f.item.keptAs).map((f) => f.item);
  const rest = events.filter((e) => e.id !== eventId);
  const after = retry.length > 0 ? events.map((e) => (e.id === eventId ? { ...e, items: retry } : e)) : rest;
  await saveEvents(deps.journal, after);
  if (retry.length === 0) await deps.fs.dropKept?.(eventId);
  return { restored, failed: failed.map((f) => ({ path: f.item.path, reason: f.reason })), events: after };
}
