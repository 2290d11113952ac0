import * as Comlink from 'comlink';
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import { SnapshotAssembler, type SnapshotChanges } from '../../../common/transfer/snapshot-changes';
import { bumpFileListVersionAtom } from '../../lib/file-events';
import { onGestureUnlocked } from '../../lib/gesture-lock-signal';
import { provideTransferHandler, reportTransferItems } from '../../lib/upload-queue';
import { getEngine, type TabRole } from './engine-client';
import { createFrameGate } from './frame-gate';
import { createListRefresh, queueIdle } from './list-refresh';
import { tabRoleAtom, transferSnapshotAtom } from './transfer-atoms';

/**
 * Connects the page to the engine: snapshots go into `transferSnapshotAtom`, uploads requested by
 * pages go to the engine, and the file list is told to refresh when an upload finishes. (Downloads
 * are not the engine's: the browser downloads files itself, see features/files/actions/download-entries.ts.)
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
    const listRefresh = createListRefresh(bumpFileList);

    const withdraw = provideTransferHandler({
      async enqueueUploads(files, target, options) {
        const ids = await engine.enqueueUploads(files, target, options);
        onNewItemsRef.current();
        return ids;
      },
      async enqueueFolder(entries, target, options) {
        const ids = await engine.enqueueFolder(entries, target, options);
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
    });

    // What the panel shows renders at most once a frame, and not while the tab is hidden (frame-gate.ts),
    // committed in the frame's own callback so the frame draws it (not an empty frame, then another);
    // pages waiting for an upload, and the file list's refresh, hear of every snapshot at once.
    const shown = createFrameGate((snapshot: TransferSnapshot) => flushSync(() => setSnapshot(snapshot)));
    const onSnapshot = (snapshot: TransferSnapshot): void => {
      shown.push(snapshot);
      // Pages waiting for an upload's file (lib/upload-queue.ts watchUpload).
      reportTransferItems(snapshot.items);
      const done = snapshot.items.filter((i) => i.state === 'done').map((i) => i.id);
      // The first snapshot only records what was already done before this page opened.
      if (doneIds.current && done.some((id) => !doneIds.current!.has(id))) {
        listRefresh.finished(queueIdle(snapshot.items));
      }
      doneIds.current = new Set(done);
    };

    // Only what changed crosses from the worker; unchanged items stay the same objects, so their rows skip.
    const assembler = new SnapshotAssembler();
    const onChanges = (changes: SnapshotChanges): void => {
      const snapshot = assembler.apply(changes);
      if (snapshot) onSnapshot(snapshot);
    };

    let subscription: number | null = null;
    let active = true;
    engine.subscribeChanges(Comlink.proxy(onChanges)).then(
      (id) => {
        if (active) subscription = id;
        else void engine.unsubscribe(id);
      },
      (e: unknown) => console.error('transfer engine unavailable', e),
    );
    void engine.watchRole(Comlink.proxy((role: TabRole) => setRole(role)));
    // The app's frame mounts only for a signed-in session, so uploads held for access (an expired
    // session, a 手势密码 lock) may go now; and again whenever the lock is lifted.
    void engine.resumeAccessHolds();
    const stopHearingUnlocks = onGestureUnlocked(() => void engine.resumeAccessHolds());

    return () => {
      active = false;
      stopHearingUnlocks();
      shown.dispose();
      listRefresh.dispose();
      withdraw();
      if (subscription !== null) void engine.unsubscribe(subscription);
    };
  }, [setSnapshot, setRole, bumpFileList]);
}
