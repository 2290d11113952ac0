import * as Comlink from 'comlink';
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import type { TransferItemView, TransferSnapshot } from '../../../common/transfer/engine-api';
import { bumpFileListVersionAtom } from '../../lib/file-events';
import { saveBlob } from '../../lib/save-blob';
import { provideTransferHandler } from '../../lib/upload-queue';
import { getEngine, type Engine, type TabRole } from './engine-client';
import { tabRoleAtom, transferSnapshotAtom } from './transfer-atoms';

/**
 * Downloads this tab asked for and has not saved yet. Kept in sessionStorage, so a download that was
 * interrupted by a reload is still saved by this tab when the engine finishes it (and not by the
 * other tabs, which see the same queue).
 */
const OWN_DOWNLOADS_KEY = 'transfer.ownDownloads';

function loadOwnDownloads(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(OWN_DOWNLOADS_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

function storeOwnDownloads(ids: Set<string>): void {
  try {
    sessionStorage.setItem(OWN_DOWNLOADS_KEY, JSON.stringify([...ids]));
  } catch {
    // storage full or disabled: the download can still be saved from its row
  }
}

/** Saves a finished download through the browser's download manager; false when the bytes are gone. */
export async function saveDownload(engine: Engine, item: TransferItemView): Promise<boolean> {
  const blob = await engine.getDownloadedFile(item.id);
  if (!blob) return false;
  saveBlob(blob, item.name);
  return true;
}

/**
 * Connects the page to the engine: snapshots go into `transferSnapshotAtom`, transfers requested by
 * pages go to the engine, the file list is told to refresh when an upload finishes, and downloads this
 * tab started are saved when done.
 */
export function useTransferEngine(onNewItems: () => void): void {
  const setSnapshot = useSetAtom(transferSnapshotAtom);
  const setRole = useSetAtom(tabRoleAtom);
  const bumpFileList = useSetAtom(bumpFileListVersionAtom);
  const doneIds = useRef<Set<string> | null>(null);
  const onNewItemsRef = useRef(onNewItems);
  useEffect(() => {
    onNewItemsRef.current = onNewItems;
  });

  useEffect(() => {
    const engine = getEngine();
    const ownDownloads = loadOwnDownloads();
    const saving = new Set<string>();

    const withdraw = provideTransferHandler({
      async enqueueUploads(files, target) {
        const ids = await engine.enqueueUploads(files, target);
        onNewItemsRef.current();
        return ids;
      },
      async enqueueFolder(entries, target) {
        const ids = await engine.enqueueFolder(entries, target);
        onNewItemsRef.current();
        // The folder tree exists on the server from now on.
        bumpFileList();
        return ids;
      },
      async enqueueNewVersion(file, target) {
        const id = await engine.enqueueNewVersion(file, target);
        onNewItemsRef.current();
        return id;
      },
      async enqueueDownload(request) {
        const id = await engine.enqueueDownload(request);
        ownDownloads.add(id);
        storeOwnDownloads(ownDownloads);
        onNewItemsRef.current();
        return id;
      },
    });

    const saveFinishedDownloads = (snapshot: TransferSnapshot): void => {
      for (const item of snapshot.items) {
        if (item.direction !== 'download' || item.state !== 'done' || !ownDownloads.has(item.id) || saving.has(item.id)) continue;
        saving.add(item.id);
        saveDownload(engine, item)
          .catch((e: unknown) => console.error('saving a download failed', e))
          .finally(() => {
            saving.delete(item.id);
            ownDownloads.delete(item.id);
            storeOwnDownloads(ownDownloads);
          });
      }
    };

    const onSnapshot = (snapshot: TransferSnapshot): void => {
      setSnapshot(snapshot);
      const done = snapshot.items.filter((i) => i.state === 'done' && i.direction === 'upload').map((i) => i.id);
      // The first snapshot only records what was already done before this page opened.
      if (doneIds.current && done.some((id) => !doneIds.current!.has(id))) bumpFileList();
      doneIds.current = new Set(done);
      saveFinishedDownloads(snapshot);
    };

    let subscription: number | null = null;
    let active = true;
    engine.subscribe(Comlink.proxy(onSnapshot)).then(
      (id) => {
        if (active) subscription = id;
        else void engine.unsubscribe(id);
      },
      (e: unknown) => console.error('transfer engine unavailable', e),
    );
    void engine.watchRole(Comlink.proxy((role: TabRole) => setRole(role)));

    return () => {
      active = false;
      withdraw();
      if (subscription !== null) void engine.unsubscribe(subscription);
    };
  }, [setSnapshot, setRole, bumpFileList]);
}
