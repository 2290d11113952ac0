import { atom } from 'jotai';
import type { TransferSnapshot } from '../../../common/transfer/engine-api';
import type { TabRole } from './engine-client';

export const EMPTY_SNAPSHOT: TransferSnapshot = { items: [], totalBytes: 0, doneBytes: 0, speed: 0 };

/** The latest snapshot pushed by the engine. */
export const transferSnapshotAtom = atom<TransferSnapshot>(EMPTY_SNAPSHOT);

/** Whether this tab runs the transfers; null until the worker has said. */
export const tabRoleAtom = atom<TabRole | null>(null);
