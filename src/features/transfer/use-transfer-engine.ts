import * as Comlink from 'comlink';
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import { bumpFileListVersionAtom } from '../../lib/file-events';
import { provideUploadHandler } from '../../lib/upload-queue';
import { getEngine } from './engine-client';
import { transferSnapshotAtom } from './transfer-atoms';

/**
 * Connects the page to the engine: snapshots go into `transferSnapshotAtom`, uploads requested by
 * pages go to the engine, and the file list is told to refresh when an upload finishes.
 */
export function useTransferEngine(onNewItems: () => void): void {
  const setSnapshot = useSetAtom(transferSnapshotAtom);
  const bumpFileList = useSetAtom(bumpFileListVersionAtom);
  const doneIds = useRef<Set<string> | null>(null);
  const onNewItemsRef = useRef(onNewItems);
  useEffect(() => {
    onNewItemsRef.current = onNewItems;
  });

  useEffect(() => {
    const engine = getEngine();
    const withdraw = provideUploadHandler(async (files, target) => {
      const ids = await engine.enqueueUploads(files, target);
      onNewItemsRef.current();
      return ids;
    });

    const onSnapshot = (snapshot: TransferSnapshot): void => {
      setSnapshot(snapshot);
      const done = snapshot.items.filter((i) => i.state === 'done').map((i) => i.id);
      // The first snapshot only records what was already done before this page opened.
      if (doneIds.current && done.some((id) => !doneIds.current!.has(id))) bumpFileList();
      doneIds.current = new Set(done);
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

    return () => {
      active = false;
      withdraw();
      if (subscription !== null) void engine.unsubscribe(subscription);
    };
  }, [setSnapshot, bumpFileList]);
}
